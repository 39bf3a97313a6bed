import ky, { type KyInstance, type Options, TimeoutError } from 'ky';
import type { Credential } from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import {
  APIError,
  APITimeoutError,
  APIUserAbortError,
  type ApiVersion,
  type AttemptRecord,
  TelephonyError,
} from '../errors.js';
import type { ClientEmitter, DeprecatedWarning } from '../events.js';
import { DeferredLog } from '../logs/deferred-log.js';
import type { AttemptLine } from '../logs/log.js';
import type { ResolvedOptions } from '../options.js';
import type { Pacing } from '../pacing/pacing.js';
import { SAFETY_MS } from '../pacing/plans.js';
import type { CallFacts, Failure } from '../response/call-error.js';
import type { Deprecations } from '../response/deprecation.js';
import type { TracedCall } from '../tracing/traced-call.js';
import type { HttpMethod } from '../types.js';
import { type Deadline, DeadlinePassed } from './deadline.js';
import { type Middleware, MiddlewareFailure } from './middleware.js';
import { type BodyRead, bodyStart, discard, readText } from './read-body.js';
import {
  decide,
  failureCodes,
  mayHaveActed,
  type Outcome,
  parseRetryAfter,
  provablyNeverSent,
} from './retry.js';
import { abortable, sleep, userAbort } from './signals.js';

/** The limits of one call: the client's options under the call's own. */
export interface CallLimits {
  timeout: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  /** Longest body read (`maxResponseBytes`). */
  maxResponseBytes: number;
}

/** What a call is, fixed before its first attempt. */
export interface CallPlan {
  /** The id the SDK gives the call: in its events and on its error. */
  requestId: string;
  method: HttpMethod;
  url: string;
  /** The URL events show: `url`, but without the query string of an absolute (pre-signed) URL. */
  shownUrl: string;
  /** `"GET /v2/calls/recent"`: how messages name the call. */
  operation: string;
  /** `undefined` for the token request, which carries its credential in the form. */
  credential: Credential | undefined;
  /** Values of the request that no error may show (a webhook signing secret). */
  secrets: ReadonlyArray<string | undefined>;
  /** The API version, whose rate budget the call uses; `undefined` for the token request, which is not paced. */
  version: ApiVersion | undefined;
  /** The traced call whose attempt spans this call's attempts are; `undefined` without a tracer. */
  traced: TracedCall | undefined;
  headers: Record<string, string>;
  /** The body as sent: JSON, or the token request's form. */
  body: string | undefined;
  limits: CallLimits;
  /** The call's own signal, aborted with the caller's; `undefined` when the caller passed none. */
  signal: AbortSignal | undefined;
  /** Reads a 2xx body's text (throwing a `TelephonyError`); `undefined`: the body is handed over unread (a download). */
  parse: ((text: string, status: number) => unknown) | undefined;
  /** A DELETE that resolves "gone" when a retry answers 404 after an earlier attempt may have acted. */
  ifGone: boolean;
  /** The call's `totalTimeout`; `undefined` without one. */
  deadline: Deadline | undefined;
}

/** The 2xx answer and its parsed body (a download's unread); `gone` for a DELETE whose retry found it done. */
export type CallResult =
  | { response: Response; body: unknown; gone: false }
  | { response: Response; body: undefined; gone: true };

/** How many of the last tokens sent are kept, so that an answer echoing one held earlier can be redacted. */
const HELD = 4;

/**
 * THE attempt loop: every call of a client runs through {@link Caller.run}, and nothing else decides
 * a retry but retry.ts's `decide`, which it asks. Per attempt: the credential (`auth/`), the wait for
 * rate budget or a pause (`pacing/`), one ky request (`retry: 0`, `throwHttpErrors: false`: ky builds
 * the request, applies the per-attempt timeout and calls {@link Caller.fetch}), the body within the
 * deadline; then the decision. The call's state is this loop's local variables. Emits `'request'`,
 * `'response'`, `'retry'` and `'throttle'`.
 */
export class Caller {
  readonly #ky: KyInstance;
  readonly #clock: Clock;
  readonly #events: ClientEmitter;
  readonly #pacing: Pacing;
  /**
   * Whether the pacing code has been asked for (a client that paces, shares state or gets its own
   * tokens: at once; any other: from its first 429). Until then nothing can hold a call back, and no
   * reservation is asked for.
   */
  #paced: boolean;
  /** Every credential the client holds, replaced wherever an error would show it. */
  readonly #secrets: ReadonlyArray<string | undefined>;
  /** The expressions that find them in an answer, compiled once (response/redact.ts). */
  readonly #patterns = new Map<string, RegExp>();
  /** The last bearer values sent, newest first: a token refreshed away stays a secret. */
  readonly #held: string[] = [];
  /** 429 bodies still to read for the plan they name: a few are enough, and a 429 storm reads no more. */
  #planChecks = 3;
  /** Pauses (a 429's `Retry-After`) this client has met: a call whose budget wait one started during asks again. */
  #pausesMet = 0;
  /**
   * The traced call that last asked a refreshable credential for a bearer: a token request,
   * which serves every call waiting for it, has its attempt spans under this one.
   */
  asker: TracedCall | undefined;

  readonly #customFetch: typeof fetch | undefined;
  /** The client's log: a line per attempt (debug), per call (info), per warning (warn). */
  readonly log: DeferredLog;
  readonly #middleware: readonly Middleware[];
  /** The chain's runner (middleware-chain.ts), loading from construction; `undefined` without middleware. */
  readonly #chain: Promise<typeof import('./middleware-chain.js')> | undefined;
  /** The deprecation notices said (response/deprecation.ts), loaded at the first answer carrying one. */
  #deprecations: Promise<Deprecations> | undefined;

  /** @param secrets every credential the client holds, never shown in an error (nor in a log line) */
  constructor(
    customFetch: typeof fetch | undefined,
    clock: Clock,
    events: ClientEmitter,
    { pacing, paced }: { pacing: Pacing; paced: boolean },
    secrets: ReadonlyArray<string | undefined>,
    see: Pick<ResolvedOptions, 'logger' | 'logLevel' | 'middleware'>,
  ) {
    this.#customFetch = customFetch;
    this.#middleware = see.middleware;
    if (see.middleware.length > 0) this.#chain = import('./middleware-chain.js');
    this.log = new DeferredLog({
      logger: see.logger,
      logLevel: see.logLevel,
      secrets: () => [...secrets, ...this.#held],
      patterns: this.#patterns,
    });
    this.#ky = ky.create({
      // ky calls its fetch with the `Request` it built.
      fetch: (request, init) => this.#fetch(request as Request, init),
      // The SDK never follows a redirect: it would carry the credential (or re-post the client
      // secret, on a 307) to wherever the answer points. A 3xx is an APIError.
      redirect: 'manual',
      // The loop is this file's: ky makes one attempt, and an answer of any status resolves.
      retry: 0,
      throwHttpErrors: false,
    });
    this.#clock = clock;
    this.#events = events;
    this.#pacing = pacing;
    this.#paced = paced;
    this.#secrets = secrets;
  }

  /** Runs the call's attempts; resolves to its 2xx answer, rejects with the one mapped error. */
  run(plan: CallPlan): Promise<CallResult> {
    const attempts: AttemptRecord[] = [];
    if (!this.log.informing) return this.#run(plan, attempts);
    // A client that logs its calls (info, debug) has its lines written as they happen: until the
    // log's code has loaded (since construction), a call waits for it.
    const loading = this.log.loading;
    return loading === undefined
      ? this.#logged(plan, attempts)
      : loading.then(() => this.#logged(plan, attempts));
  }

  /** {@link Caller.run} for a client that logs its calls: a line when the call ends. */
  #logged(plan: CallPlan, attempts: AttemptRecord[]): Promise<CallResult> {
    const startedAt = Date.now();
    const line = { requestId: plan.requestId, operation: plan.operation };
    return this.#run(plan, attempts).then(
      (result) => {
        const status = result.response?.status;
        this.log.call({ ...line, attempts: attempts.length, ms: Date.now() - startedAt, status });
        return result;
      },
      (error: TelephonyError) => {
        const { name, message, outcome } = error;
        const ms = Date.now() - startedAt;
        this.log.call({ ...line, attempts: attempts.length, ms, error: { name, message, outcome } });
        throw error;
      },
    );
  }

  async #run(plan: CallPlan, attempts: AttemptRecord[]): Promise<CallResult> {
    const { method, shownUrl: url, requestId, limits, signal, traced, deadline } = plan;
    const policy = {
      maxRetries: limits.maxRetries,
      maxRetryAfterMs: limits.maxRetryAfterMs,
      idempotent: isIdempotent(plan),
    };
    // The 401 repeat is there only for a credential that can give another token.
    const state = { retries: 0, repeated401: plan.credential?.refreshable !== true };
    let acted = false;
    let after429 = false;
    let waitedMs = 0;
    let bearer: string | undefined;
    const fail = (failure: Failure) => mapped(failure, this.#facts(plan, acted, attempts, bearer));
    const debug = (attempt: number, record: AttemptRecord, next: AttemptLine['next']) => {
      if (this.log.debugging)
        this.log.attempt({ requestId, operation: plan.operation, method, url, attempt, ...record, next });
    };
    // A wait that would pass the call's deadline is refused before it starts, never slept through.
    const refuseWait = async (attempt: number, record: AttemptRecord, ms: number, outcome: Outcome) => {
      if (deadline === undefined || deadline.fits(ms)) return;
      debug(attempt, record, { retry: false });
      acted ||= mayHaveActed(outcome);
      throw await fail(passed(deadline, false));
    };
    // A whole-call deadline would bound this loop: each round is one attempt and the wait after it.
    for (let attempt = 0; ; attempt++) {
      let headers: Record<string, string>;
      try {
        if (signal?.aborted) throw userAbort(signal);
        if (deadline !== undefined && deadline.left() === 0) throw await fail(passed(deadline, false));
        bearer = await this.#bearer(plan);
        const paced = await this.#pace(plan, after429);
        if (typeof paced === 'object') throw await fail(paced);
        waitedMs += paced;
        headers =
          bearer === undefined ? plan.headers : { ...plan.headers, authorization: `Bearer ${bearer}` };
      } catch (error) {
        throw isErrorOf(plan, error)
          ? error
          : await fail(
              error instanceof DeadlinePassed ? passed(error, false) : failureOf(error, signal, false),
            );
      }
      const record: AttemptRecord = { ms: 0 };
      if (waitedMs > 0) record.waitedMs = waitedMs;
      attempts.push(record);
      waitedMs = 0;
      // The attempt's time-out, cut to what is left of the call's deadline: the headers and the body
      // are read within it.
      const read: BodyRead = {
        operation: plan.operation,
        signal,
        startedAt: Date.now(),
        timeout: deadline === undefined ? limits.timeout : deadline.attemptTimeout(limits.timeout),
        maxResponseBytes: limits.maxResponseBytes,
      };
      const { startedAt } = read;
      const span = traced?.startAttempt(method, url, attempt, headers);
      if (this.#events.heard.has('request'))
        this.#events.emit('request', { method, url, attempt, requestId });
      let response: Response;
      try {
        response = await this.#attempt(plan, headers, attempt, read.timeout);
      } catch (error) {
        record.ms = Date.now() - startedAt;
        // An attempt cut short by the call's deadline is the call's time-out, not the attempt's.
        const failure = cutByDeadline(deadline, error, TimeoutError)
          ? passed(deadline, true)
          : failureOf(error, signal, true);
        record.error =
          failure.kind === 'timeout' || failure.kind === 'deadline'
            ? 'APITimeoutError'
            : failure.kind === 'abort'
              ? 'APIUserAbortError'
              : 'APIConnectionError';
        // A cancelled attempt is no failure of the attempt (HTTP semantic conventions): no error.type.
        if (span !== undefined)
          traced?.endAttempt(span, undefined, failure.kind === 'abort' ? undefined : record.error);
        const outcome = outcomeOf(failure);
        const decision = outcome === undefined ? undefined : decide(outcome, state, policy);
        if (outcome === undefined || decision?.action !== 'wait') {
          debug(attempt, record, { retry: false });
          throw await fail(failure);
        }
        await refuseWait(attempt, record, decision.ms, outcome);
        debug(attempt, record, { retry: true, waitMs: decision.ms, reason: decision.reason });
        waitedMs = await this.#wait(plan, attempt, decision.ms, decision.reason, fail);
        acted ||= mayHaveActed(outcome);
        after429 = false;
        state.retries++;
        continue;
      }
      const { status } = response;
      record.ms = Date.now() - startedAt;
      record.status = status;
      if (span !== undefined) traced?.endAttempt(span, status);
      if (this.#events.heard.has('response'))
        this.#events.emit('response', { method, url, attempt, requestId, status, durationMs: record.ms });
      // The notice is read only from an answer that carries one of its headers (few do).
      if (response.headers.has('deprecation') || response.headers.has('sunset'))
        await this.#noticed(method, plan.url, response.headers, requestId);
      if (response.ok) {
        debug(attempt, record, { retry: false });
        return { response, body: await this.#read(plan, response, read, fail), gone: false };
      }
      // Read once per answer: the pause, the wait and the error's `retryAfter` all come from it.
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
      if (status === 429) this.#paused(plan, response, retryAfterMs);
      const outcome: Outcome = { kind: 'answer', status, retryAfterMs };
      let decision = decide(outcome, state, policy);
      if (decision.action === 'repeat_401') {
        state.repeated401 = true;
        // A shared token is dropped from the shared state first (a promise), so the repeat cannot read it back.
        if (bearer !== undefined && (await plan.credential?.invalidate(bearer))) {
          discard(response);
          // This attempt used the slot of a 429 before it (if any): the repeat books its own.
          after429 = false;
          debug(attempt, record, { retry: true, waitMs: 0, reason: 'status 401' });
          if (this.#events.heard.has('retry'))
            this.#events.emit('retry', { method, url, attempt, requestId, delayMs: 0, reason: 'status 401' });
          continue;
        }
        decision = decide(outcome, state, policy);
      }
      if (decision.action === 'wait') {
        // The answer of an attempt that is retried is not read: free its connection.
        discard(response);
        await refuseWait(attempt, record, decision.ms, outcome);
        debug(attempt, record, { retry: true, waitMs: decision.ms, reason: decision.reason });
        waitedMs = await this.#wait(plan, attempt, decision.ms, decision.reason, fail);
        acted ||= mayHaveActed(outcome);
        after429 = status === 429;
        state.retries++;
        continue;
      }
      debug(attempt, record, { retry: false });
      if (plan.ifGone && status === 404 && acted) {
        discard(response);
        return { response, body: undefined, gone: true };
      }
      const error = await fail(await this.#errorAnswer(response, read, retryAfterMs, fail));
      if (error instanceof APIError) record.code = error.code;
      throw error;
    }
  }

  /** The `deprecated` warning of an answer carrying the headers, the first time for its method and path. */
  async #noticed(method: HttpMethod, url: string, headers: Headers, requestId: string): Promise<void> {
    this.#deprecations ??= import('../response/deprecation.js').then(
      ({ Deprecations }) => new Deprecations(),
    );
    let deprecated: DeprecatedWarning | undefined;
    try {
      deprecated = (await this.#deprecations).answered(method, url, headers, requestId);
    } catch {
      // Code that could not load (a chunk the browser failed to fetch) costs the warning, not the call;
      // the next answer with a notice tries again.
      this.#deprecations = undefined;
    }
    if (deprecated !== undefined) this.#events.emit('warning', deprecated);
  }

  /** The one fetch of an attempt, called by ky with the `Request` it built (and the middleware's). */
  #fetch(request: Request, init?: RequestInit): Promise<Response> {
    // globalThis.fetch is read per call so a fetch patched after construction (msw) is used.
    return this.#customFetch === undefined
      ? globalThis.fetch(request, init)
      : this.#customFetch(request, init);
  }

  /** A 2xx answer's body, parsed as the plan says (within the attempt's deadline); a download's is not read. */
  async #read(
    plan: CallPlan,
    response: Response,
    read: BodyRead,
    fail: (failure: Failure) => Promise<TelephonyError>,
  ): Promise<unknown> {
    if (plan.parse === undefined) return undefined;
    try {
      return plan.parse(await readText(read, response), response.status);
    } catch (error) {
      throw await fail(
        error instanceof APIUserAbortError
          ? { kind: 'abort', error, inFlight: true }
          : cutByDeadline(plan.deadline, error, APITimeoutError)
            ? passed(plan.deadline, true)
            : { kind: 'unreadable', error: error as TelephonyError },
      );
    }
  }

  /**
   * One ky request: no retry, no `HTTPError` (an answer of any status resolves), ky's per-attempt
   * timeout (cut to what is left of the call's deadline), and the middleware around its fetch.
   */
  #attempt(
    plan: CallPlan,
    headers: Record<string, string>,
    attempt: number,
    timeout: number,
  ): Promise<Response> {
    // Only what differs from ky's defaults: each option given costs ky a merge.
    const options: Options = { method: plan.method, timeout, headers };
    if (plan.body !== undefined) options.body = plan.body;
    if (plan.signal !== undefined) options.signal = plan.signal;
    const loading = this.#chain;
    if (loading !== undefined) {
      const chain = this.#middleware;
      const context = { operation: plan.operation, attempt, requestId: plan.requestId };
      options.fetch = (request, init) =>
        loading.then(({ throughMiddleware }) =>
          throughMiddleware(chain, request as Request, context, (sent) => this.#fetch(sent, init)),
        );
    }
    return this.#ky(plan.url, options);
  }

  /** The credential's bearer; a token being fetched is awaited, watching the call's signal. */
  async #bearer(plan: CallPlan): Promise<string | undefined> {
    const { credential } = plan;
    if (credential === undefined) return undefined;
    if (credential.refreshable) this.asker = plan.traced;
    const { deadline, limits } = plan;
    const value = credential.bearer(
      deadline === undefined ? limits.timeout : deadline.attemptTimeout(limits.timeout),
    );
    // A token request other calls share goes on past this call's deadline, for them.
    const bearer =
      typeof value !== 'object'
        ? value
        : await (deadline === undefined
            ? abortable(value, plan.signal)
            : deadline.within(abortable(value, plan.signal)));
    if (this.#held[0] !== bearer && this.#held.unshift(bearer) > HELD) this.#held.pop();
    return bearer;
  }

  /**
   * Waits for rate budget or a pause (after the credential: a slot is taken only when it can be used
   * at once): the milliseconds waited, or the refusal when the wait would pass `maxRetryAfter` or the
   * call's deadline.
   * `after429`: the attempt repeats one the service refused, so it sends in that attempt's slot.
   */
  async #pace(plan: CallPlan, after429: boolean): Promise<number | Failure> {
    if (plan.version === undefined || !this.#paced) return 0;
    // The safety second is the client's own, not the service's: it does not count against the cap.
    const { maxRetryAfterMs, timeout } = plan.limits;
    const { deadline } = plan;
    const capMs = maxRetryAfterMs + SAFETY_MS;
    // A slot the call will not use (past the cap, or past its deadline) is not taken: the store still
    // answers the wait, and a call its deadline refuses spends no budget.
    const maxWaitMs = deadline === undefined ? capMs : Math.min(capMs, deadline.left() - 1);
    const reservation = this.#pacing.reserve(plan.version, maxWaitMs, timeout, after429, plan.signal);
    if (reservation === undefined) return 0;
    // The store's answer is a wait of the call too: a slow store must not carry it past its deadline
    // (its own bound is the attempt's `timeout`), nor may an answer that came after it let it send.
    const answered = abortable(reservation, plan.signal);
    const { waitMs, reason } = await (deadline === undefined ? answered : deadline.within(answered));
    if (waitMs > capMs && reason !== undefined) return { kind: 'held_back', waitMs, reason, maxRetryAfterMs };
    if (waitMs <= 0 || reason === undefined) return 0;
    if (deadline !== undefined && !deadline.fits(waitMs)) return passed(deadline, false);
    if (this.#events.heard.has('throttle')) this.#events.emit('throttle', { waitMs, reason });
    plan.traced?.waited(reason, waitMs);
    const pausesMet = this.#pausesMet;
    await sleep(this.#clock, waitMs, plan.signal);
    if (this.#pausesMet === pausesMet) return waitMs;
    // A 429 met during the wait paused every call, this one too: it waits for the pause in its slot.
    const more = await this.#pace(plan, true);
    return typeof more === 'object' ? more : waitMs + more;
  }

  /** The `'retry'` event, then the wait the decision set, on the client's clock: the ms waited. */
  async #wait(
    plan: CallPlan,
    attempt: number,
    delayMs: number,
    reason: string,
    fail: (failure: Failure) => Promise<TelephonyError>,
  ): Promise<number> {
    const { method, shownUrl: url, requestId } = plan;
    if (this.#events.heard.has('retry'))
      this.#events.emit('retry', { method, url, attempt, requestId, delayMs, reason });
    if (delayMs === 0) return 0;
    plan.traced?.waited('retry', delayMs);
    try {
      await sleep(this.#clock, delayMs, plan.signal);
    } catch (error) {
      throw await fail({ kind: 'abort', error: error as APIUserAbortError, inFlight: false });
    }
    return delayMs;
  }

  /**
   * A 429's `Retry-After` pauses the account for every client sharing the state; the plan it names
   * (`Rate limit of N requests per minute`, read from a copy of the body until the client has warned)
   * is checked against `rateLimit`.
   */
  #paused(plan: CallPlan, response: Response, retryAfterMs: number | undefined): void {
    if (plan.version === undefined) return;
    if (retryAfterMs !== undefined && retryAfterMs > 0) {
      this.#paced = true;
      this.#pausesMet++;
      void this.#pacing.pause(plan.version, retryAfterMs);
    }
    if (this.#planChecks-- > 0) {
      // Its first chunk only: a 429's body may be huge or endless, and the copy must not read it all.
      bodyStart(response.clone(), 2_000).then(
        (text) => {
          const found = /(\d+) requests per minute/i.exec(text);
          if (!found) return;
          this.#paced = true;
          this.#pacing.planSeen(Number(found[1]));
        },
        () => {},
      );
    }
  }

  /** The last answer as a failure: its body read up to `maxResponseBytes` (past that, its first bytes). */
  async #errorAnswer(
    response: Response,
    read: BodyRead,
    retryAfterMs: number | undefined,
    fail: (failure: Failure) => Promise<TelephonyError>,
  ): Promise<Failure> {
    let cutAt: number | undefined;
    // An error body that cannot be read leaves the error its status; only the caller's abort wins.
    const text = await readText(read, response, () => {
      cutAt = read.maxResponseBytes;
    }).catch(async (error: unknown) => {
      if (error instanceof APIUserAbortError) throw await fail({ kind: 'abort', error, inFlight: true });
      return '';
    });
    return { kind: 'answer', response, text, cutAt, retryAfterMs };
  }

  /** What the error of `plan` says of the call. */
  #facts(plan: CallPlan, acted: boolean, attempts: AttemptRecord[], bearer: string | undefined): CallFacts {
    return {
      operation: plan.operation,
      origin: new URL(plan.url).origin,
      // The token request's version is undefined (it is not paced): its answers are v2's.
      apiVersion: plan.version ?? 'v2',
      idempotent: isIdempotent(plan),
      tokenRequest: plan.credential === undefined,
      timeout: plan.limits.timeout,
      mayHaveActed: acted,
      requestId: plan.requestId,
      attempts,
      secrets: [...this.#secrets, ...this.#held, bearer, ...plan.secrets],
      patterns: this.#patterns,
    };
  }
}

/** Whether `error`, a time-out of the attempt, came because the call's deadline left no more time. */
const cutByDeadline = (
  deadline: Deadline | undefined,
  error: unknown,
  timeoutClass: typeof TimeoutError | typeof APITimeoutError,
): deadline is Deadline => deadline !== undefined && deadline.left() === 0 && error instanceof timeoutClass;

/**
 * The one error mapping (response/call-error.ts), loaded by `import()` on a call's first failure: the
 * failure path is async anyway, and a bundle makes the mapping a chunk a client loads only when a
 * call fails.
 */
async function mapped(failure: Failure, facts: CallFacts): Promise<TelephonyError> {
  const { callError } = await import('../response/call-error.js');
  return callError(failure, facts);
}

/** POST is not idempotent, except the token request (no credential: it carries it in the form). */
const isIdempotent = (plan: CallPlan) => plan.method !== 'POST' || plan.credential === undefined;

/**
 * An error the loop mapped already for `plan` (it carries the call's id), thrown through a step that
 * maps what it catches. Another call's error (the token request's, which a waiting call inherits) is
 * mapped again as this call's.
 */
const isErrorOf = (plan: CallPlan, error: unknown) =>
  error instanceof TelephonyError && error.requestId === plan.requestId;

/** What an attempt that failed without an answer produced, for the policy; `undefined` for an abort or a refusal. */
function outcomeOf(failure: Failure): Outcome | undefined {
  if (failure.kind === 'timeout') return failure;
  if (failure.kind === 'connection') return { kind: 'connection', neverSent: failure.neverSent };
  return undefined;
}

/** What a failed attempt (or the steps before it: `sent` false) threw, as a failure to map. */
function failureOf(error: unknown, signal: AbortSignal | undefined, sent: boolean): Failure {
  // ky rejects with the signal's reason when the caller aborts a request in flight.
  if (signal?.aborted)
    return {
      kind: 'abort',
      error: error instanceof APIUserAbortError ? error : userAbort(signal),
      inFlight: sent,
    };
  if (error instanceof APIUserAbortError) return { kind: 'abort', error, inFlight: sent };
  // A middleware that threw fails the attempt as a network failure would: nothing sent if it threw before `next`.
  if (error instanceof MiddlewareFailure)
    return { kind: 'connection', cause: error.cause, codes: [], neverSent: !error.sent };
  if (error instanceof TelephonyError) return { kind: 'refused', error };
  if (error instanceof TimeoutError) return { kind: 'timeout' };
  const codes = failureCodes(error);
  return { kind: 'connection', cause: error, codes, neverSent: provablyNeverSent(codes) };
}

/** The call's `totalTimeout` passed (`inFlight`: during an attempt), or a wait would have passed it. */
const passed = (deadline: { totalMs: number }, inFlight: boolean): Failure => ({
  kind: 'deadline',
  totalMs: deadline.totalMs,
  inFlight,
});
