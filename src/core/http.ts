import type { EventEmitter } from 'eventemitter3';
import ky, { type KyInstance } from 'ky';
import {
  CallbackCredential,
  type Credential,
  type IssuedToken,
  issuedToken,
  StaticCredential,
  TokenCache,
} from './auth.js';
import { discard, readErrorBody, readJson } from './body.js';
import type { Clock } from './clock.js';
import {
  APIConnectionError,
  type APIError,
  APITimeoutError,
  type ApiVersion,
  errorFromResponse,
  ValidationError,
} from './errors.js';
import type { ClientEvents } from './events.js';
import { mergeHeaders } from './headers.js';
import { type ClientOptions, DEFAULTS, validateRequestOptions } from './options.js';
import { redact } from './redact.js';
import { decideRetry, failureCodes, type Outcome, parseRetryAfter, provablyNeverSent } from './retry.js';
import { abortable, followBoth, userAbort } from './signals.js';
import type { HttpMethod, RawRequest, RequestOptions, Transport } from './transport.js';
import { joinUrl, withQuery } from './url.js';

const TOKEN_PATH = '/v2/oauth/token';

interface Target {
  version: ApiVersion;
  url: string;
}

/** The one place requests are made: URL, credential, one ky attempt per try, retries, errors, events. */
export class HttpTransport implements Transport {
  readonly #ky: KyInstance;
  readonly #clock: Clock;
  readonly #events: EventEmitter<ClientEvents>;
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

  constructor(options: ClientOptions, clock: Clock, events: EventEmitter<ClientEvents>) {
    const custom = options.fetch;
    // globalThis.fetch is read per call so a fetch patched after construction (msw) is used.
    const doFetch =
      custom ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    // `timeout: false`: the per-attempt timer is ours (see #attempts); ky's own wraps every fetch in a
    // second promise and timer on top of the signal it always creates (40–85 µs per call measured).
    this.#ky = ky.create({ retry: 0, throwHttpErrors: false, timeout: false, fetch: doFetch });
    this.#clock = clock;
    this.#events = events;
    this.#baseUrl = options.baseUrl;
    this.#baseUrlV1 = options.baseUrlV1;
    this.#clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    this.#scope = Array.isArray(options.scope) ? options.scope.join(' ') : options.scope;
    const { accessToken, apiKey } = options;
    if (typeof accessToken === 'function') this.#v2 = new CallbackCredential(accessToken);
    else if (accessToken !== undefined) this.#v2 = new StaticCredential(accessToken);
    else if (options.clientSecret !== undefined) this.#v2 = new TokenCache(() => this.#requestToken(), clock);
    if (apiKey !== undefined) this.#v1 = new StaticCredential(apiKey);
    this.#maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.#timeout = options.timeout ?? DEFAULTS.timeout;
    this.#maxRetryAfterMs = (options.maxRetryAfter ?? DEFAULTS.maxRetryAfter) * 1000;
    this.#defaultHeaders = mergeHeaders({}, options.defaultHeaders, undefined);
  }

  async send(request: RawRequest, options?: RequestOptions): Promise<unknown> {
    const response = await this.#perform(request, options, false);
    return readJson(response, `${request.method} ${request.path}`);
  }

  download(request: RawRequest, options?: RequestOptions): Promise<Response> {
    return this.#perform(request, options, true);
  }

  #target(request: RawRequest, allowAbsolute: boolean): Target {
    let path = request.path;
    let absolute: URL | undefined;
    if (allowAbsolute && /^https?:\/\//.test(path)) {
      const url = new URL(path);
      absolute = url;
      // The host is checked before the path, so a foreign URL is refused for what it is.
      const bases = [this.#baseUrl, this.#baseUrlV1]
        .flatMap((base) => (base === undefined ? [] : [new URL(base)]))
        .filter((base) => base.origin === url.origin)
        .map((base) => base.pathname.replace(/\/$/, ''));
      if (bases.length === 0) throw refuse(url.origin, 'baseUrl or baseUrlV1');
      // Under a base with a path prefix (a gateway's /telephony), the API path follows the prefix.
      const prefix = bases.find((base) => url.pathname.startsWith(`${base}/v`)) ?? '';
      path = url.pathname.slice(prefix.length);
    }
    const version: ApiVersion | undefined = path.startsWith('/v2/')
      ? 'v2'
      : path.startsWith('/v1/')
        ? 'v1'
        : undefined;
    if (version === undefined) {
      throw new ValidationError(`Path must start with /v2/ or /v1/: ${path}`, [
        { path: 'path', message: 'must start with /v2/ or /v1/' },
      ]);
    }
    const base = version === 'v2' ? this.#baseUrl : this.#baseUrlV1;
    const option = version === 'v2' ? 'baseUrl' : 'baseUrlV1';
    if (base === undefined) {
      throw new ValidationError(`${request.method} ${path} needs the ${option} option`, [
        { path: option, message: `set ${option} to call ${version} paths` },
      ]);
    }
    if (absolute !== undefined) {
      const expected = new URL(joinUrl(base, path));
      // Same host, outside the base's path prefix: not where the credential is meant to go either.
      if (absolute.origin !== expected.origin || absolute.pathname !== expected.pathname)
        throw refuse(absolute.origin + absolute.pathname, option);
    }
    const url = absolute !== undefined ? absolute.href : joinUrl(base, path);
    return { version, url: withQuery(url, request.query) };
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
  ): Promise<Response> {
    validateRequestOptions(options);
    const { version, url } = this.#target(request, allowAbsolute);
    const credential = this.#credential(version, request);
    const headers = mergeHeaders(this.#defaultHeaders, request.headers, options?.headers);
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const operation = `${request.method} ${request.path}`;
    let refreshed = false;
    for (;;) {
      const bearerOrPromise = credential.bearer();
      const bearer =
        typeof bearerOrPromise === 'string'
          ? bearerOrPromise
          : await abortable(bearerOrPromise, options?.signal);
      headers.authorization = `Bearer ${bearer}`;
      const response = await this.#attempts(request.method, url, headers, body, options, operation);
      if (response.status === 401 && !refreshed && credential.invalidate(bearer)) {
        refreshed = true;
        discard(response);
        continue;
      }
      if (response.ok) return response;
      throw await this.#errorFrom(response, version, operation, [bearer]);
    }
  }

  /** Tries until a non-retryable answer; returns it (2xx or not). Throws on abort and final connection errors. */
  async #attempts(
    method: HttpMethod,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: RequestOptions | undefined,
    operation: string,
  ): Promise<Response> {
    const signal = options?.signal;
    const maxRetries = options?.maxRetries ?? this.#maxRetries;
    const timeout = options?.timeout ?? this.#timeout;
    const maxRetryAfterMs =
      options?.maxRetryAfter === undefined ? this.#maxRetryAfterMs : options.maxRetryAfter * 1000;
    const idempotent = method !== 'POST' || url.endsWith(TOKEN_PATH);
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw userAbort(signal);
      this.#events.emit('request', { method, url, attempt });
      const started = this.#clock.now();
      let outcome: Outcome = { kind: 'connection', neverSent: false };
      let response: Response | undefined;
      let failure: APIConnectionError | undefined;
      const expiry = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        expiry.abort();
      }, timeout);
      try {
        response = await this.#ky(url, {
          method,
          headers,
          body: body ?? null,
          signal: signal === undefined ? expiry.signal : followBoth(signal, expiry),
        });
      } catch (error) {
        if (signal?.aborted) throw userAbort(signal);
        if (timedOut) {
          failure = new APITimeoutError(`${operation} timed out after ${timeout} ms`);
          outcome = { kind: 'timeout' };
        } else {
          const codes = failureCodes(error);
          failure = new APIConnectionError(
            `${operation} failed: no HTTP answer from ${new URL(url).origin}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`,
            { cause: error },
          );
          outcome = { kind: 'connection', neverSent: provablyNeverSent(codes) };
        }
      } finally {
        // Like ky's timeout, the timer covers the wait for the answer's headers, not the body read.
        clearTimeout(timer);
      }
      if (response !== undefined) {
        const status = response.status;
        this.#events.emit('response', {
          method,
          url,
          attempt,
          status,
          durationMs: this.#clock.now() - started,
        });
        if (response.ok || status === 401) return response;
        outcome = {
          kind: 'status',
          status,
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), this.#clock.now()),
        };
      }
      const decision = decideRetry(outcome, attempt, maxRetries, idempotent, maxRetryAfterMs, Math.random());
      if (!decision.retry) {
        if (response !== undefined) return response;
        throw failure;
      }
      if (response !== undefined) discard(response);
      this.#events.emit('retry', {
        method,
        url,
        attempt,
        delayMs: decision.delayMs,
        reason: decision.reason,
      });
      try {
        await this.#clock.sleep(decision.delayMs, signal);
      } catch {
        throw userAbort(signal);
      }
    }
  }

  /**
   * The error for a non-2xx answer. `sent` are the credentials the request carried: an answer that
   * echoes them (a proxy's error page, a debug header) has them replaced in the error's message,
   * `body` and `headers`, as is the client secret.
   */
  async #errorFrom(
    response: Response,
    version: ApiVersion,
    operation: string,
    sent: readonly string[],
    tokenRequest = false,
  ): Promise<APIError> {
    const secrets = [...sent, this.#clientSecret].filter((s): s is string => s !== undefined);
    const body = await readErrorBody(response);
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
    return errorFromResponse(
      response.status,
      redact(body, secrets),
      redact(Object.fromEntries(response.headers), secrets),
      version,
      operation,
      { retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000), tokenRequest },
    );
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
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const response = await this.#attempts(
      'POST',
      joinUrl(base, TOKEN_PATH),
      headers,
      form.toString(),
      undefined,
      operation,
    );
    if (!response.ok) throw await this.#errorFrom(response, 'v2', operation, [], true);
    const issued = issuedToken(await readJson(response, operation), operation);
    this.#events.emit('token', { expires_in: issued.expires_in, scope: issued.scope });
    return issued;
  }
}

function refuse(target: string, option: string): ValidationError {
  return new ValidationError(`Refusing to send credentials to ${target}: not under ${option}`, [
    { path: 'path', message: `must be under ${option}` },
  ]);
}
