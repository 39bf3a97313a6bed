import ky, { type KyInstance, type Options } from 'ky';
import { CallbackCredential, type Credential, StaticCredential, TokenCache } from '../auth/credentials.js';
import { fingerprint } from '../auth/fingerprint.js';
import { requestToken } from '../auth/request-token.js';
import { SharedTokenSource } from '../auth/shared-token.js';
import type { Clock } from '../clock.js';
import { type ApiVersion, ValidationError } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import { type ClientOptions, DEFAULTS, validateHeaders, validateRequestOptions } from '../options.js';
import { budgetOf, Pacer, SharedStateGuard } from '../pacing/pacer.js';
import { mergeHeaders } from '../request/headers.js';
import { resolveTarget } from '../request/route.js';
import { parseJson, parseLenient } from '../response/body.js';
import type { HttpMethod, RawRequest, RequestOptions, Transport } from '../types.js';
import { type Exchange, METHODS, methodOf, readText } from './exchange.js';
import { failure } from './failure.js';
import { Attempts } from './hooks.js';
import { shouldRetry } from './should-retry.js';
import { follow } from './signals.js';

/**
 * The one place requests are made. ky does the HTTP mechanics — the attempt loop, the per-attempt
 * timeout up to the answer's headers, the retry count, hooks — and this class gives it the SDK's
 * policy: the credential per attempt (`beforeRequest`), the retry decision (`retry.shouldRetry`,
 * asked for every failure), the wait and the `'retry'` event (`beforeRetry`), and one mapping of
 * what ky returns or throws to the SDK's errors. The hooks are attempts.ts, the retry decision
 * should-retry.ts, the mapping failure.ts and the token request request-token.ts.
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
  readonly #baseUrl: string | undefined;
  readonly #baseUrlV1: string | undefined;
  readonly #v2: Credential | undefined;
  readonly #v1: Credential | undefined;
  readonly #maxRetries: number;
  readonly #timeout: number;
  readonly #maxRetryAfterMs: number;
  readonly #defaultHeaders: Record<string, string>;
  /** Every credential the client holds, replaced wherever an error would show it. */
  readonly #secrets: ReadonlyArray<string | undefined>;
  readonly #attempts: Attempts;
  /** The client-credentials token as every client of the state shares it. */
  readonly #sharedToken: SharedTokenSource | undefined;
  /** The account part of shared-state keys: the client id, else a fingerprint of the credential. */
  readonly #account: string;

  constructor(options: ClientOptions, clock: Clock, events: ClientEmitter) {
    const custom = options.fetch;
    // globalThis.fetch is read per call so a fetch patched after construction (msw) is used.
    const doFetch = custom ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
    const guard = new SharedStateGuard(options.sharedState, clock, events);
    this.#attempts = new Attempts(clock, events, new Pacer(guard, budgetOf(options.rateLimit), clock));
    this.#ky = ky.create({
      fetch: doFetch as typeof fetch,
      // The SDK never follows a redirect: it would carry the credential (or re-post the client
      // secret, on a 307) to wherever the answer points. A 3xx is an APIError.
      redirect: 'manual',
      retry: { methods: METHODS.map((m) => m.toLowerCase()), delay: () => 0 },
      hooks: this.#attempts.hooks,
    });
    this.#clock = clock;
    this.#baseUrl = options.baseUrl;
    this.#baseUrlV1 = options.baseUrlV1;
    const scope = Array.isArray(options.scope) ? options.scope.join(' ') : options.scope;
    const { accessToken, apiKey, clientId, clientSecret } = options;
    const staticToken = typeof accessToken === 'string' ? accessToken : undefined;
    // The account part of shared-state keys: the client id, else a fingerprint of the credential.
    this.#account = clientId ?? `key-${fingerprint(apiKey ?? staticToken ?? 'default')}`;
    if (typeof accessToken === 'function') this.#v2 = new CallbackCredential(accessToken);
    else if (staticToken !== undefined) this.#v2 = new StaticCredential(staticToken);
    else if (clientSecret !== undefined) {
      const tokenKey = `${this.#account}:token:${fingerprint(`${this.#baseUrl} ${scope ?? ''}`)}`;
      const source = new SharedTokenSource(guard, tokenKey, clock, () =>
        requestToken(
          (url, operation, form) => this.#post(url, operation, form),
          events,
          this.#baseUrl,
          clientId,
          clientSecret,
          scope,
        ),
      );
      this.#sharedToken = source;
      this.#v2 = new TokenCache(() => source.obtain(), clock);
    }
    if (apiKey !== undefined) this.#v1 = new StaticCredential(apiKey);
    this.#maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.#timeout = options.timeout ?? DEFAULTS.timeout;
    this.#maxRetryAfterMs = (options.maxRetryAfter ?? DEFAULTS.maxRetryAfter) * 1000;
    this.#defaultHeaders = mergeHeaders({}, options.defaultHeaders, undefined);
    this.#secrets = [clientSecret, apiKey, staticToken];
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
        shouldRetry: ({ error }) => shouldRetry(exchange, error, this.#clock, this.#sharedToken, this.#v2),
      },
    };
    let response: Response;
    try {
      response = await this.#ky(exchange.url, kyOptions);
    } catch (error) {
      const thrown = await failure(exchange, error, this.#clock, this.#secrets, version);
      exchange.link?.release();
      throw thrown;
    }
    this.#attempts.reportAnswer(exchange, response);
    return response;
  }

  /** The token request's POST (request-token.ts builds it): its answer's JSON. */
  async #post(url: string, operation: string, form: string): Promise<unknown> {
    // Shared by every caller waiting for a token, so no caller's signal or per-call options apply.
    const exchange = this.#exchange('POST', url, operation, undefined, undefined);
    try {
      const response = await this.#fetch(
        exchange,
        { 'content-type': 'application/x-www-form-urlencoded' },
        form,
        'v2',
      );
      return parseJson(await readText(exchange, response), response.status, operation);
    } finally {
      exchange.link?.release();
    }
  }
}
