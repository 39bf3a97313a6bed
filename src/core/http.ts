import ky, { HTTPError, type KyInstance, type Options, TimeoutError } from 'ky';
import {
  CallbackCredential,
  type Credential,
  type IssuedToken,
  issuedToken,
  StaticCredential,
  TokenCache,
} from './auth.js';
import { discard, parseErrorBody, parseJson, parseLenient } from './body.js';
import type { Clock } from './clock.js';
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  type ApiVersion,
  AuthenticationError,
  errorFromResponse,
  TelephonyError,
  ValidationError,
} from './errors.js';
import type { ClientEmitter } from './events.js';
import {
  type Exchange,
  exchangeOf,
  METHODS,
  methodOf,
  outcomeOf,
  overBudget,
  readText,
  timedOut,
} from './exchange.js';
import { fingerprint } from './fingerprint.js';
import { mergeHeaders } from './headers.js';
import { type ClientOptions, DEFAULTS, validateHeaders, validateRequestOptions } from './options.js';
import { budgetOf, Pacer, SAFETY_MS, SharedStateGuard } from './pacing.js';
import { redact } from './redact.js';
import { decideRetry, failureCodes, parseRetryAfter } from './retry.js';
import { resolveTarget } from './route.js';
import { SharedTokenSource } from './shared-token.js';
import { abortable, follow, userAbort } from './signals.js';
import type { HttpMethod, RawRequest, RequestOptions, Transport } from './transport.js';
import { joinUrl } from './url.js';

const TOKEN_PATH = '/v2/oauth/token';

/**
 * The one place requests are made. ky does the HTTP mechanics — the attempt loop, the per-attempt
 * timeout up to the answer's headers, the retry count, hooks — and this file gives it the SDK's
 * policy: the credential per attempt (`beforeRequest`), the retry decision (`retry.shouldRetry`,
 * asked for every failure), the wait and the `'retry'` event (`beforeRetry`), and one mapping of
 * what ky returns or throws to the SDK's errors.
 *
 * Kept here because ky cannot express it:
 * - the wait between attempts runs on the client's `Clock` (ky's own is a bare `setTimeout`): a
 *   test's fake clock or the sandbox's manual clock must govern it, and the `'retry'` event reports
 *   it before it starts. So ky's delay is 0 and the policy computes backoff and `Retry-After`.
 * - the deadline also covers reading the body (ky clears its timer at the headers).
 * - one signal per call, linked to the caller's without `AbortSignal.any` (signals.ts says why).
 */
export class HttpTransport implements Transport {
  readonly #ky: KyInstance;
  readonly #clock: Clock;
  readonly #events: ClientEmitter;
  readonly #baseUrl: string | undefined;
  readonly #baseUrlV1: string | undefined;
  readonly #v2: Credential | undefined;
  readonly #v1: Credential | undefined;
  readonly #clientId: string | undefined;
  readonly #clientSecret: string | undefined;
  readonly #scope: string | undefined;
  readonly #maxRetries: number;
  readonly #timeout: number;
  readonly #maxRetryAfterMs: number;
  readonly #defaultHeaders: Record<string, string>;
  /** Every credential the client holds, replaced wherever an error would show it. */
  readonly #secrets: ReadonlyArray<string | undefined>;
  readonly #pacer: Pacer;
  /** The client-credentials token as every client of the state shares it. */
  readonly #sharedToken: SharedTokenSource | undefined;
  /** The account part of shared-state keys: the client id, else a fingerprint of the credential. */
  readonly #account: string;

  constructor(options: ClientOptions, clock: Clock, events: ClientEmitter) {
    const custom = options.fetch;
    // globalThis.fetch is read per call so a fetch patched after construction (msw) is used.
    const doFetch = custom ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
    this.#ky = ky.create({
      fetch: doFetch as typeof fetch,
      // The SDK never follows a redirect: it would carry the credential (or re-post the client
      // secret, on a 307) to wherever the answer points. A 3xx is an APIError.
      redirect: 'manual',
      retry: { methods: METHODS.map((m) => m.toLowerCase()), delay: () => 0 },
      hooks: {
        beforeRequest: [(request, options) => this.#beforeAttempt(exchangeOf(options), request)],
        beforeError: [
          (error) => {
            const exchange = exchangeOf(error.options);
            this.#reportAnswer(exchange, error.response);
            this.#pauseOn429(exchange, error.response);
            return error;
          },
        ],
        beforeRetry: [({ options }) => this.#wait(exchangeOf(options))],
      },
    });
    this.#clock = clock;
    this.#events = events;
    this.#baseUrl = options.baseUrl;
    this.#baseUrlV1 = options.baseUrlV1;
    this.#clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    this.#scope = Array.isArray(options.scope) ? options.scope.join(' ') : options.scope;
    const { accessToken, apiKey } = options;
    const staticToken = typeof accessToken === 'string' ? accessToken : undefined;
    // The account part of shared-state keys: the client id, else a fingerprint of the credential.
    this.#account = options.clientId ?? `key-${fingerprint(apiKey ?? staticToken ?? 'default')}`;
    const guard = new SharedStateGuard(options.sharedState, clock, events);
    this.#pacer = new Pacer(guard, budgetOf(options.rateLimit), clock);
    if (typeof accessToken === 'function') this.#v2 = new CallbackCredential(accessToken);
    else if (staticToken !== undefined) this.#v2 = new StaticCredential(staticToken);
    else if (options.clientSecret !== undefined) {
      const tokenKey = `${this.#account}:token:${fingerprint(`${options.baseUrl} ${this.#scope ?? ''}`)}`;
      const source = new SharedTokenSource(guard, tokenKey, clock, () => this.#requestToken());
      this.#sharedToken = source;
      this.#v2 = new TokenCache(() => source.obtain(), clock);
    }
    if (apiKey !== undefined) this.#v1 = new StaticCredential(apiKey);
    this.#maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.#timeout = options.timeout ?? DEFAULTS.timeout;
    this.#maxRetryAfterMs = (options.maxRetryAfter ?? DEFAULTS.maxRetryAfter) * 1000;
    this.#defaultHeaders = mergeHeaders({}, options.defaultHeaders, undefined);
    this.#secrets = [options.clientSecret, apiKey, typeof accessToken === 'string' ? accessToken : undefined];
  }

  async send(request: RawRequest, options?: RequestOptions): Promise<unknown> {
    const { response, exchange } = await this.#perform(request, options, false);
    try {
      const text = await readText(exchange, response);
      return request.lenient ? parseLenient(text) : parseJson(text, response.status, exchange.operation);
    } finally {
      exchange.link?.release();
    }
  }

  async download(request: RawRequest, options?: RequestOptions): Promise<Response> {
    // The caller reads this body: the link to its signal stays, so aborting still stops the read.
    const { response } = await this.#perform(request, options, true);
    return response;
  }

  #credential(version: ApiVersion, request: RawRequest): Credential {
    const credential = version === 'v2' ? this.#v2 : this.#v1;
    if (credential === undefined) {
      const option = version === 'v2' ? 'clientId and clientSecret, or accessToken' : 'apiKey';
      throw new ValidationError(`${request.method} ${request.path} is a ${version} call: set ${option}`, [
        { path: version === 'v2' ? 'accessToken' : 'apiKey', message: `set ${option} for ${version} calls` },
      ]);
    }
    return credential;
  }

  async #perform(
    request: RawRequest,
    options: RequestOptions | undefined,
    allowAbsolute: boolean,
  ): Promise<{ response: Response; exchange: Exchange }> {
    validateRequestOptions(options);
    validateHeaders(request.headers);
    const method = methodOf(request.method);
    const { version, url } = resolveTarget(request, allowAbsolute, this.#baseUrl, this.#baseUrlV1);
    const credential = this.#credential(version, request);
    const headers = mergeHeaders(this.#defaultHeaders, request.headers, options?.headers);
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const exchange = this.#exchange(method, url, `${method} ${request.path}`, credential, options);
    exchange.secrets = request.secrets ?? [];
    exchange.scope = `${this.#account}:${version}`;
    const response = await this.#fetch(exchange, headers, body, version);
    return { response, exchange };
  }

  #exchange(
    method: HttpMethod,
    url: string,
    operation: string,
    credential: Credential | undefined,
    options: RequestOptions | undefined,
  ): Exchange {
    const caller = options?.signal;
    return {
      method,
      url,
      operation,
      idempotent: method !== 'POST' || credential === undefined,
      credential,
      bearer: undefined,
      secrets: [],
      scope: undefined,
      link: caller === undefined ? undefined : follow(caller),
      timeout: options?.timeout ?? this.#timeout,
      maxRetries: options?.maxRetries ?? this.#maxRetries,
      maxRetryAfterMs:
        options?.maxRetryAfter === undefined ? this.#maxRetryAfterMs : options.maxRetryAfter * 1000,
      retries: 0,
      refreshed: false,
      delayMs: 0,
      reason: '',
      startedAt: 0,
      reported: -1,
      attempt: 0,
    };
  }

  /** Runs the attempts through ky; resolves to the 2xx answer (body unread), rejects with a TelephonyError. */
  async #fetch(
    exchange: Exchange,
    headers: Record<string, string>,
    body: string | undefined,
    version: ApiVersion,
  ): Promise<Response> {
    // A refreshable credential gets room for its one repeat after a 401, beyond maxRetries.
    const refreshable =
      exchange.credential !== undefined && !(exchange.credential instanceof StaticCredential);
    const kyOptions: Options = {
      method: exchange.method,
      headers,
      body: body ?? null,
      signal: exchange.link?.controller.signal ?? null,
      timeout: exchange.timeout,
      context: { exchange },
      retry: {
        limit: exchange.maxRetries + (refreshable ? 1 : 0),
        shouldRetry: ({ error }) => this.#shouldRetry(exchange, error),
      },
    };
    let response: Response;
    try {
      response = await this.#ky(exchange.url, kyOptions);
    } catch (error) {
      const failure = await this.#failure(exchange, error, version);
      exchange.link?.release();
      throw failure;
    }
    this.#reportAnswer(exchange, response);
    return response;
  }

  #beforeAttempt(exchange: Exchange, request: Request): Promise<void> | undefined {
    const signal = exchange.link?.controller.signal;
    if (signal?.aborted) throw userAbort(signal);
    const bearer = exchange.credential?.bearer();
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
      exchange.scope === undefined ? undefined : this.#pacer.reserve(exchange.scope, maxWaitMs);
    if (reservation === undefined) return this.#startAttempt(exchange, request, bearer);
    const signal = exchange.link?.controller.signal;
    return abortable(reservation, signal).then(({ waitMs, reason }) => {
      if (waitMs > maxWaitMs) throw overBudget(exchange, waitMs);
      // No wait (the usual case): the attempt starts in this step, without one more promise.
      if (waitMs <= 0 || reason === undefined) return this.#startAttempt(exchange, request, bearer);
      this.#events.emit('throttle', { waitMs, reason });
      return this.#clock.sleep(waitMs, signal).then(
        () => this.#startAttempt(exchange, request, bearer),
        () => {
          throw userAbort(signal);
        },
      );
    });
  }

  /** A 429's `Retry-After` pauses the account for every client sharing the state. */
  #pauseOn429(exchange: Exchange, response: Response): void {
    if (response.status !== 429 || exchange.scope === undefined) return;
    const ms = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
    if (ms !== undefined && ms > 0) void this.#pacer.pause(exchange.scope, ms);
  }

  #startAttempt(exchange: Exchange, request: Request, bearer: string | undefined): undefined {
    if (bearer !== undefined) {
      exchange.bearer = bearer;
      request.headers.set('authorization', `Bearer ${bearer}`);
    }
    exchange.startedAt = Date.now();
    this.#events.emit('request', { method: exchange.method, url: exchange.url, attempt: exchange.attempt });
    return undefined;
  }

  /** Emits `'response'` once per attempt that got an HTTP answer. */
  #reportAnswer(exchange: Exchange, response: Response): void {
    if (exchange.reported === exchange.attempt) return;
    exchange.reported = exchange.attempt;
    this.#events.emit('response', {
      method: exchange.method,
      url: exchange.url,
      attempt: exchange.attempt,
      status: response.status,
      durationMs: Date.now() - exchange.startedAt,
    });
  }

  /** ky asks this for every failed attempt: `true` retries after `exchange.delayMs`, `false` gives up. */
  #shouldRetry(exchange: Exchange, error: Error): boolean | Promise<boolean> {
    if (error instanceof TelephonyError || exchange.link?.controller.signal.aborted) return false;
    if (error instanceof HTTPError) {
      const { response } = error;
      if (
        response.status === 401 &&
        !exchange.refreshed &&
        exchange.credential !== undefined &&
        exchange.bearer !== undefined &&
        exchange.credential.invalidate(exchange.bearer)
      ) {
        exchange.refreshed = true;
        // Dropped from the shared state first, so the repeat's token request cannot read it back.
        const refused = exchange.bearer;
        if (this.#sharedToken === undefined || exchange.credential !== this.#v2)
          return this.#retryAfter(exchange, 0, 'status 401', response);
        return this.#sharedToken
          .drop(refused)
          .then(() => this.#retryAfter(exchange, 0, 'status 401', response));
      }
    }
    const decision = decideRetry(
      outcomeOf(error, this.#clock.now()),
      exchange.retries,
      exchange.maxRetries,
      exchange.idempotent,
      exchange.maxRetryAfterMs,
      Math.random(),
    );
    if (!decision.retry) return false;
    exchange.retries++;
    return this.#retryAfter(
      exchange,
      decision.delayMs,
      decision.reason,
      (error as Partial<HTTPError>).response,
    );
  }

  #retryAfter(exchange: Exchange, delayMs: number, reason: string, answer: Response | undefined): true {
    // The answer of an attempt that is retried is not read: free its connection.
    if (answer !== undefined) discard(answer);
    exchange.delayMs = delayMs;
    exchange.reason = reason;
    return true;
  }

  async #wait(exchange: Exchange): Promise<void> {
    const { method, url, attempt, delayMs, reason } = exchange;
    this.#events.emit('retry', { method, url, attempt, delayMs, reason });
    exchange.attempt++;
    if (delayMs === 0) return;
    const signal = exchange.link?.controller.signal;
    try {
      await this.#clock.sleep(delayMs, signal);
    } catch {
      throw userAbort(signal);
    }
  }

  /** What ky threw, as the SDK's error. */
  async #failure(exchange: Exchange, error: unknown, version: ApiVersion): Promise<TelephonyError> {
    const signal = exchange.link?.controller.signal;
    if (error instanceof TelephonyError) return error;
    if (signal?.aborted) return userAbort(signal);
    if (error instanceof HTTPError) {
      return this.#errorFrom(exchange, error.response, version);
    }
    if (error instanceof TimeoutError) {
      return timedOut(exchange);
    }
    const codes = failureCodes(error);
    return new APIConnectionError(
      `${exchange.operation} failed: no HTTP answer from ${new URL(exchange.url).origin}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`,
      { cause: error },
    );
  }

  /**
   * The error for a non-2xx answer. An answer may echo the request (a proxy's error page, a debug
   * header): every credential of the client, the bearer the request carried and the request's own
   * `secrets` are replaced in the error's message, `body` and `headers`.
   */
  async #errorFrom(exchange: Exchange, response: Response, version: ApiVersion): Promise<APIError> {
    const secrets = [...this.#secrets, exchange.bearer, ...exchange.secrets].filter(
      (s): s is string => typeof s === 'string',
    );
    // An error body that cannot be read leaves the error its status; only the caller's abort wins.
    const text = await readText(exchange, response).catch((error: unknown) => {
      if (error instanceof APIUserAbortError) throw error;
      return '';
    });
    const body = redact(parseErrorBody(text), secrets);
    const headers = redact(Object.fromEntries(response.headers), secrets);
    const { status } = response;
    const tokenRequest = exchange.credential === undefined;
    if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
      const location = response.headers.get('location');
      return new (tokenRequest ? AuthenticationError : APIError)({
        status,
        code: 'redirect_not_followed',
        message: `the answer redirects${location === null ? '' : ` to ${redact(location, secrets)}`}; the SDK follows no redirect, so credentials go only to the configured base URL`,
        headers,
        body,
        apiVersion: version,
        operation: exchange.operation,
      });
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
    return errorFromResponse(status, body, headers, version, exchange.operation, {
      retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
      tokenRequest,
    });
  }

  async #requestToken(): Promise<IssuedToken> {
    const operation = `POST ${TOKEN_PATH}`;
    const base = this.#baseUrl;
    if (base === undefined) {
      throw new ValidationError(`${operation} needs the baseUrl option`, [
        { path: 'baseUrl', message: 'set baseUrl' },
      ]);
    }
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.#clientId ?? '',
      client_secret: this.#clientSecret ?? '',
    });
    if (this.#scope !== undefined) form.set('scope', this.#scope);
    // Shared by every caller waiting for a token, so no caller's signal or per-call options apply.
    const exchange = this.#exchange('POST', joinUrl(base, TOKEN_PATH), operation, undefined, undefined);
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    let issued: IssuedToken;
    try {
      const response = await this.#fetch(exchange, headers, form.toString(), 'v2');
      issued = issuedToken(
        parseJson(await readText(exchange, response), response.status, operation),
        operation,
      );
    } finally {
      exchange.link?.release();
    }
    this.#events.emit('token', { expires_in: issued.expires_in, scope: issued.scope });
    return issued;
  }
}
