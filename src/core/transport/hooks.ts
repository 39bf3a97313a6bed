import type { Hooks } from 'ky';
import type { Clock } from '../clock.js';
import { RateLimitError } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import type { Pacing } from '../pacing/pacing.js';
import { SAFETY_MS } from '../pacing/plans.js';
import type { Reservation } from '../pacing/shared-state.js';
import type { Operation } from '../tracing/current.js';
import type { Exchange } from './exchange.js';
import { bodyStart } from './read-body.js';
import { parseRetryAfter, waitBeforeRetry } from './retry.js';
import { abortable, sleep, userAbort } from './signals.js';

const exchangeOf = (options: { context: Record<string, unknown> }) => options.context.exchange as Exchange;
/** How many of the last tokens sent are kept, so that an answer echoing one held earlier can be redacted. */
const HELD = 4;

/**
 * ky's hooks, asked around every attempt of every call (the call is ky's `context.exchange`): the
 * credential and the rate budget before an attempt, the `'response'` event and a 429's pause after
 * an error answer, and the wait before a retry (retry.ts). Emits `'request'`, `'response'`,
 * `'retry'` and `'throttle'`.
 */
export class AttemptHooks {
  readonly #clock: Clock;
  readonly #events: ClientEmitter;
  readonly #pacing: Pacing;
  /** The last bearer values sent, newest first: a token refreshed away stays a secret. */
  readonly held: string[] = [];
  /**
   * The traced operation that last asked a refreshable credential for a bearer: a token request,
   * which serves every call waiting for it, has its attempt spans under this one.
   */
  asker: Operation | undefined;
  /** 429 bodies still to read for the plan they name: a few are enough, and a 429 storm reads no more. */
  #planChecks = 3;

  readonly hooks: Hooks = {
    beforeRequest: [(request, options) => this.#beforeAttempt(exchangeOf(options), request)],
    beforeError: [
      (error) => {
        const exchange = exchangeOf(error.options);
        this.answered(exchange, error.response);
        this.#pauseOn429(exchange, error.response);
        return error;
      },
    ],
    beforeRetry: [({ options }) => waitBeforeRetry(exchangeOf(options), this.#clock, this.#events)],
  };

  constructor(clock: Clock, events: ClientEmitter, pacing: Pacing) {
    this.#clock = clock;
    this.#events = events;
    this.#pacing = pacing;
  }

  #beforeAttempt(exchange: Exchange, request: Request): Promise<void> | undefined {
    const signal = exchange.signal;
    if (signal?.aborted) throw userAbort(signal);
    if (exchange.credential?.refreshable) this.asker = exchange.op;
    const bearer = exchange.credential?.bearer(exchange.timeout);
    if (typeof bearer === 'object')
      // A token being fetched is awaited; ky does not interrupt a hook on abort, so the wait watches
      // the call's signal itself. A bearer at hand (the usual case) costs no promise.
      return abortable(bearer, signal).then((value) => this.#paceThenStart(exchange, request, value));
    return this.#paceThenStart(exchange, request, bearer);
  }

  /** Waits for rate budget or a pause (the token first: a slot is taken only when it can be used at once). */
  #paceThenStart(
    exchange: Exchange,
    request: Request,
    bearer: string | undefined,
  ): Promise<void> | undefined {
    // The safety second is the client's own, not the service's: it does not count against the cap.
    const maxWaitMs = exchange.maxRetryAfterMs + SAFETY_MS;
    const reservation =
      exchange.version === undefined
        ? undefined
        : this.#pacing.reserve(
            exchange.version,
            maxWaitMs,
            exchange.timeout,
            // Set by a failed attempt's retry decision, so never before the first attempt.
            exchange.wait.reason === 'status 429',
          );
    if (reservation === undefined) return this.#start(exchange, request, bearer);
    const signal = exchange.signal;
    return abortable(reservation, signal).then(({ waitMs, reason }) => {
      if (waitMs > maxWaitMs) throw refused(exchange, waitMs, reason);
      // No wait (the usual case): the attempt starts in this step, without one more promise.
      if (waitMs <= 0 || reason === undefined) return this.#start(exchange, request, bearer);
      this.#events.emit('throttle', { waitMs, reason });
      exchange.op?.waited(reason, waitMs);
      return sleep(this.#clock, waitMs, signal).then(() => this.#start(exchange, request, bearer));
    });
  }

  #start(exchange: Exchange, request: Request, bearer: string | undefined): undefined {
    if (bearer !== undefined) {
      request.headers.set('authorization', `Bearer ${bearer}`);
      const held = this.held;
      if (held[0] !== bearer && held.unshift(bearer) > HELD) held.pop();
    }
    exchange.startAttempt(bearer);
    exchange.span = exchange.op?.startAttempt(
      exchange.method,
      exchange.shownUrl,
      exchange.attempt,
      request.headers,
    );
    this.#events.emit('request', {
      method: exchange.method,
      url: exchange.shownUrl,
      attempt: exchange.attempt,
    });
    return undefined;
  }

  /**
   * A 429's `Retry-After` pauses the account for every client sharing the state; the plan it names
   * (`Rate limit of N requests per minute`, read from a copy of the body until the client has warned)
   * is checked against `rateLimit`.
   */
  #pauseOn429(exchange: Exchange, response: Response): void {
    if (response.status !== 429 || exchange.version === undefined) return;
    const ms = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
    if (ms !== undefined && ms > 0) void this.#pacing.pause(exchange.version, ms);
    if (this.#planChecks-- > 0) {
      // Its first chunk only: a 429's body may be huge or endless, and the copy must not read it all.
      bodyStart(response.clone(), 2_000).then(
        (text) => {
          const plan = /(\d+) requests per minute/i.exec(text);
          if (plan) this.#pacing.planSeen(Number(plan[1]));
        },
        () => {},
      );
    }
  }

  /**
   * Emits `'response'` for an attempt that got an HTTP answer. Once per attempt: ky runs `beforeError`
   * once for each attempt answered otherwise than 2xx, and only the last attempt's 2xx reaches http.ts.
   */
  answered(exchange: Exchange, response: Response): void {
    exchange.endSpan(response.status);
    this.#events.emit('response', {
      method: exchange.method,
      url: exchange.shownUrl,
      attempt: exchange.attempt,
      status: response.status,
      durationMs: Date.now() - exchange.startedAt,
    });
  }
}

/**
 * A call that would wait longer than its `maxRetryAfter` fails at once, as a 429 would: `paused` when
 * a 429 paused the account, `rate_budget_exhausted` when the `rateLimit` budget is spent.
 */
function refused(exchange: Exchange, waitMs: number, reason: Reservation['reason']): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  const paused = reason === 'paused';
  return new RateLimitError({
    status: 429,
    code: paused ? 'paused' : 'rate_budget_exhausted',
    message: `${paused ? 'a 429 paused the account' : 'the rate budget (rateLimit) is spent'} for ${seconds} s more, longer than maxRetryAfter (${exchange.maxRetryAfterMs / 1000} s); nothing was sent`,
    headers: {},
    body: undefined,
    apiVersion: exchange.version ?? 'v2',
    operation: exchange.operation,
    retryAfter: seconds,
  });
}
