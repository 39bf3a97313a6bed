import {
  CallbackCredential,
  type Credential,
  clientCredentialsFlow,
  StaticCredential,
} from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import { invalid } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import { type ResolvedOptions, validateHeaders, validateRequestOptions } from '../options.js';
import { Pacing } from '../pacing/pacing.js';
import { withExtraBody, withExtraQuery } from '../request/extra.js';
import { joinUrl, mergeHeaders, methodOf, operationName, resolveTarget } from '../request/route.js';
import { APIPromise, type WithResponse } from '../response/api-promise.js';
import { parseJson, parseLenient } from '../response/envelope.js';
import { v1Deprecated } from '../response/v1-deprecated.js';
import type { TracedCall, TracingTransport } from '../tracing/traced-call.js';
import type { RawRequest, RequestOptions } from '../types.js';
import { Caller, type CallLimits, type CallPlan } from './call.js';
import { Deadline } from './deadline.js';
import { follow, type Link, releasing } from './signals.js';

const TOKEN_PATH = '/v2/oauth/token';

/** A prefix per process and a count: ids that differ between processes and cost no randomness per call. */
const ID_PREFIX = `req_${Math.random().toString(36).slice(2, 10)}`;
let calls = 0;
const nextRequestId = () => `${ID_PREFIX}${(++calls).toString(36)}`;

/**
 * The client's transport (see src/core/README.md): shapes each request from what the resource asked
 * (`request/`), and hands it to the attempt loop (call.ts) as a {@link CallPlan}. Kept here: the
 * credentials by API version, the client's limits under each call's own, the link to the caller's
 * signal (one per call, without `AbortSignal.any`: signals.ts), and the token request's POST.
 */
export class HttpTransport implements TracingTransport {
  readonly #caller: Caller;
  readonly #baseUrl: string | undefined;
  readonly #baseUrlV1: string | undefined;
  readonly #v2: Credential | undefined;
  readonly #v1: Credential | undefined;
  readonly #limits: CallLimits;
  readonly #defaultHeaders: Record<string, string>;
  readonly #events: ClientEmitter;
  readonly #clock: Clock;
  readonly #totalTimeout: number | undefined;
  /** Whether `v1_deprecated` was said: once per client. */
  #v1Said = false;

  constructor(options: ResolvedOptions, events: ClientEmitter) {
    const { accessToken, apiKey, clientId, clientSecret, scope, clock } = options;
    const paced =
      options.budget !== undefined || options.sharedState !== undefined || clientSecret !== undefined;
    const pacing = new Pacing([options, events], paced);
    const staticToken = typeof accessToken === 'string' ? accessToken : undefined;
    this.#caller = new Caller(
      options.fetch,
      clock,
      events,
      { pacing, paced },
      [clientSecret, apiKey, staticToken],
      options,
    );
    this.#events = events;
    events.onWarning = (warning) => this.#caller.log.warning(warning);
    this.#clock = clock;
    this.#totalTimeout = options.totalTimeout;
    this.#baseUrl = options.baseUrl;
    this.#baseUrlV1 = options.baseUrlV1;
    if (typeof accessToken === 'function') this.#v2 = new CallbackCredential(accessToken);
    else if (staticToken !== undefined) this.#v2 = new StaticCredential(staticToken);
    else if (clientSecret !== undefined) {
      const post = (form: string) => this.#postToken(form);
      const settings = { baseUrl: options.baseUrl, clientId, clientSecret, scope, clock, events, post };
      this.#v2 = clientCredentialsFlow(settings, pacing.parts());
    }
    if (apiKey !== undefined) this.#v1 = new StaticCredential(apiKey);
    const { maxRetries, timeout, maxRetryAfterMs, maxResponseBytes } = options;
    this.#limits = { maxRetries, timeout, maxRetryAfterMs, maxResponseBytes };
    this.#defaultHeaders = options.defaultHeaders;
  }

  send(request: RawRequest, options?: RequestOptions, traced?: TracedCall): APIPromise<unknown> {
    return this.sendChecked(request, options, (body) => body, traced);
  }

  /** `send`, with the 2xx body checked within the call: a check that throws fails it as an unreadable answer. */
  sendChecked<R>(
    request: RawRequest,
    options: RequestOptions | undefined,
    check: (body: unknown) => R,
    traced?: TracedCall,
  ): APIPromise<R> {
    return new APIPromise(this.#send(request, options, check, traced));
  }

  async #send<R>(
    request: RawRequest,
    options: RequestOptions | undefined,
    check: (body: unknown) => R,
    traced: TracedCall | undefined,
  ): Promise<WithResponse<R>> {
    const plan = this.#plan(request, options, traced, false, (text, status) =>
      check(request.lenient ? parseLenient(text) : parseJson(text, status, plan.operation)),
    );
    try {
      const { gone, body, response } = await this.#caller.run(plan);
      return { data: gone ? check(request.ifGone) : (body as R), response, requestId: plan.requestId };
    } finally {
      this.#release(plan);
    }
  }

  download(request: RawRequest, options?: RequestOptions, traced?: TracedCall): APIPromise<Response> {
    return new APIPromise(this.#download(request, options, traced));
  }

  /** The download's answer: its `Response` is both `data` and `response`, one body read once by the caller. */
  async #download(
    request: RawRequest,
    options: RequestOptions | undefined,
    traced: TracedCall | undefined,
  ): Promise<WithResponse<Response>> {
    const plan = this.#plan(request, options, traced, true, undefined);
    const { requestId } = plan;
    const link = this.#links.get(plan);
    let response: Response | undefined;
    try {
      response = (await this.#caller.run(plan)).response as Response;
    } finally {
      if (link === undefined || response?.body === null || response === undefined) this.#release(plan);
    }
    if (link === undefined || response.body === null) return { data: response, response, requestId };
    // The caller reads this body, so the link to its signal stays (aborting still stops the read)
    // until the body ends, fails or is cancelled: a long-lived signal must not keep every download.
    const wrapped = new Response(releasing(response.body, link), response);
    Object.defineProperty(wrapped, 'url', { value: response.url });
    return { data: wrapped, response: wrapped, requestId };
  }

  /** The request checked and shaped (nothing is sent yet): a `ValidationError` is thrown here. */
  #plan(
    request: RawRequest,
    options: RequestOptions | undefined,
    traced: TracedCall | undefined,
    allowAbsolute: boolean,
    parse: CallPlan['parse'],
  ): CallPlan {
    if (typeof request !== 'object' || request === null)
      throw invalid('Invalid request', 'request', 'must be an object with method and path');
    // Each check and merge runs only for what the call gave: most calls give neither options nor extras.
    if (options !== undefined) validateRequestOptions(options);
    if (request.headers !== undefined) validateHeaders(request.headers);
    const method = methodOf(request.method);
    let target = request;
    if (options?.extraQuery !== undefined) {
      const named = operationName({ method, path: String(request.path) });
      // Merged after the typed params were checked (operation.ts): they are the caller's own words.
      target = { ...request, query: withExtraQuery(request.query, options.extraQuery, named) };
    }
    const { version, url, shown } = resolveTarget(target, allowAbsolute, this.#baseUrl, this.#baseUrlV1);
    const operation = operationName({ method, path: shown ?? request.path });
    const credential = version === 'v2' ? this.#v2 : this.#v1;
    if (credential === undefined) {
      const option = version === 'v2' ? 'clientId and clientSecret, or accessToken' : 'apiKey';
      // Named as shown: a pre-signed URL's query string is its signature.
      throw invalid(
        operation,
        version === 'v2' ? 'accessToken' : 'apiKey',
        `set ${option} for ${version} calls`,
      );
    }
    const headers = mergeHeaders(this.#defaultHeaders, request.headers, options?.headers);
    let body: string | undefined;
    const value =
      options?.extraBody === undefined
        ? request.body
        : withExtraBody(request.body, options.extraBody, operation);
    if (value !== undefined) {
      body = jsonBody(value, operation);
      headers['content-type'] = 'application/json';
    }
    const requestId = nextRequestId();
    if (version === 'v1' && !this.#v1Said) {
      this.#v1Said = true;
      this.#events.emit('warning', v1Deprecated(requestId));
    }
    const totalTimeout = options?.totalTimeout ?? this.#totalTimeout;
    return this.#linked(
      {
        requestId,
        method,
        url,
        shownUrl: shown ?? url,
        operation,
        credential,
        secrets: request.secrets ?? [],
        version,
        traced,
        headers,
        body,
        limits: this.#limitsOf(options),
        signal: undefined,
        parse,
        ifGone: method === 'DELETE' && request.ifGone !== undefined,
        deadline: totalTimeout === undefined ? undefined : new Deadline(this.#clock, totalTimeout),
      },
      options?.signal,
    );
  }

  /** The calls whose caller passed a signal, with the link to it that each must release. */
  readonly #links = new WeakMap<CallPlan, Link>();

  /** `plan`, given its own signal linked to the caller's (when there is one). */
  #linked(plan: CallPlan, caller: AbortSignal | undefined): CallPlan {
    if (caller === undefined) return plan;
    const link = follow(caller);
    plan.signal = link.controller.signal;
    this.#links.set(plan, link);
    return plan;
  }

  #release(plan: CallPlan): void {
    this.#links.get(plan)?.release();
  }

  /** The client's limits under the call's own options. */
  #limitsOf(options: RequestOptions | undefined): CallLimits {
    if (options === undefined) return this.#limits;
    const limits = this.#limits;
    return {
      timeout: options.timeout ?? limits.timeout,
      maxRetries: options.maxRetries ?? limits.maxRetries,
      maxRetryAfterMs:
        options.maxRetryAfter === undefined ? limits.maxRetryAfterMs : options.maxRetryAfter * 1000,
      maxResponseBytes: options.maxResponseBytes ?? limits.maxResponseBytes,
    };
  }

  /**
   * The token request's POST (auth/request-token.ts builds its form and checks the answer, with the
   * client-credentials code a browser loads on first use): the answer's JSON.
   */
  async #postToken(form: string): Promise<{ answer: unknown; operation: string }> {
    const operation = operationName({ method: 'POST', path: TOKEN_PATH });
    // Set: only a v2 call asks for a token, and resolveTarget refuses one without baseUrl.
    const url = joinUrl(this.#baseUrl as string, TOKEN_PATH);
    // Shared by every caller waiting for a token, so no caller's signal or per-call options apply.
    const { body } = await this.#caller.run({
      requestId: nextRequestId(),
      method: 'POST',
      url,
      shownUrl: url,
      operation,
      credential: undefined,
      secrets: [],
      version: undefined,
      traced: this.#caller.asker,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      limits: this.#limits,
      signal: undefined,
      parse: (text, status) => parseJson(text, status, operation),
      ifGone: false,
      // Shared by every call waiting for a token: each bounds its own wait for it (call.ts).
      deadline: undefined,
    });
    return { answer: body, operation };
  }
}

/** The body as JSON; a value JSON cannot carry (a `BigInt`, a cycle) is a `ValidationError`, nothing sent. */
function jsonBody(value: unknown, operation: string): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw invalid(operation, 'body', `must be JSON-serializable (${why})`);
  }
}
