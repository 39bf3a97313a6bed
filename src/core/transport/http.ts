import ky, { type KyInstance, type Options } from 'ky';
import {
  CallbackCredential,
  type Credential,
  LazyCredential,
  StaticCredential,
} from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import { type ApiVersion, ValidationError } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import { loadShared } from '../load.js';
import { type ClientOptions, DEFAULTS, validateHeaders, validateRequestOptions } from '../options.js';
import { Pacing } from '../pacing/pacing.js';
import { budgetOf } from '../pacing/plans.js';
import { mergeHeaders } from '../request/headers.js';
import { methodOf, operationName } from '../request/method.js';
import { resolveTarget } from '../request/route.js';
import { parseJson, parseLenient } from '../response/body.js';
import type { RawRequest, RequestOptions, Transport } from '../types.js';
import { Exchange, type ExchangeInit } from './exchange.js';
import { failure } from './failure.js';
import { AttemptHooks } from './hooks.js';
import { readText } from './read-body.js';
import { KY_RETRY, retryOptions } from './retry.js';
import { follow } from './signals.js';

/**
 * The one place requests are made (see src/core/README.md). ky runs the attempts — the loop, the
 * per-attempt timeout up to the answer's headers, the retry count — and the SDK gives it its policy:
 * the hooks (hooks.ts), the retry decision (retry.ts) and one mapping of what ky throws (failure.ts).
 * Kept here because ky cannot do it: the deadline also covers reading the body (read-body.ts), and
 * one signal per call is linked to the caller's without `AbortSignal.any` (signals.ts).
 */
export class HttpTransport implements Transport {
  readonly #ky: KyInstance;
  readonly #clock: Clock;
  readonly #hooks: AttemptHooks;
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

  constructor(options: ClientOptions, clock: Clock, events: ClientEmitter) {
    const { accessToken, apiKey, clientId, clientSecret } = options;
    const maxRetryAfterMs = (options.maxRetryAfter ?? DEFAULTS.maxRetryAfter) * 1000;
    const pacing = new Pacing(
      () => loadShared().then((m) => m.sharedParts(options, maxRetryAfterMs, clock, events)),
      budgetOf(options.rateLimit) !== undefined ||
        options.sharedState !== undefined ||
        clientSecret !== undefined,
    );
    this.#hooks = new AttemptHooks(clock, events, pacing);
    const custom = options.fetch;
    this.#ky = ky.create({
      // globalThis.fetch is read per call so a fetch patched after construction (msw) is used.
      fetch: (custom ??
        ((input: Request, init?: RequestInit) => globalThis.fetch(input, init))) as typeof fetch,
      // The SDK never follows a redirect: it would carry the credential (or re-post the client
      // secret, on a 307) to wherever the answer points. A 3xx is an APIError.
      redirect: 'manual',
      retry: KY_RETRY,
      hooks: this.#hooks.hooks,
    });
    this.#clock = clock;
    this.#baseUrl = options.baseUrl;
    this.#baseUrlV1 = options.baseUrlV1;
    const staticToken = typeof accessToken === 'string' ? accessToken : undefined;
    if (typeof accessToken === 'function') this.#v2 = new CallbackCredential(accessToken);
    else if (staticToken !== undefined) this.#v2 = new StaticCredential(staticToken);
    else if (clientSecret !== undefined) {
      const flow = {
        baseUrl: this.#baseUrl,
        clientId,
        clientSecret,
        scope: Array.isArray(options.scope) ? options.scope.join(' ') : options.scope,
      };
      const post = (url: string, operation: string, form: string) => this.#post(url, operation, form);
      this.#v2 = new LazyCredential(
        Promise.all([loadShared(), pacing.parts()]).then(([m, { guard, account }]) =>
          m.clientCredentials({ ...flow, account }, guard, clock, events, post),
        ),
      );
    }
    if (apiKey !== undefined) this.#v1 = new StaticCredential(apiKey);
    this.#maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.#timeout = options.timeout ?? DEFAULTS.timeout;
    this.#maxRetryAfterMs = maxRetryAfterMs;
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
      throw new ValidationError(`${operationName(request)} is a ${version} call: set ${option}`, [
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
    const exchange = this.#exchange(
      {
        method,
        url,
        operation: operationName({ method, path: request.path }),
        credential,
        secrets: request.secrets ?? [],
        version,
      },
      options,
    );
    const response = await this.#fetch(exchange, headers, body, version);
    return { response, exchange };
  }

  /** The call: what it is, and the client's settings under the call's own options. */
  #exchange(
    call: Omit<ExchangeInit, 'link' | 'timeout' | 'maxRetries' | 'maxRetryAfterMs'>,
    options: RequestOptions | undefined,
  ): Exchange {
    const caller = options?.signal;
    return new Exchange({
      ...call,
      link: caller === undefined ? undefined : follow(caller),
      timeout: options?.timeout ?? this.#timeout,
      maxRetries: options?.maxRetries ?? this.#maxRetries,
      maxRetryAfterMs:
        options?.maxRetryAfter === undefined ? this.#maxRetryAfterMs : options.maxRetryAfter * 1000,
    });
  }

  /** Runs the attempts through ky; resolves to the 2xx answer (body unread), rejects with a TelephonyError. */
  async #fetch(
    exchange: Exchange,
    headers: Record<string, string>,
    body: string | undefined,
    version: ApiVersion,
  ): Promise<Response> {
    let response: Response;
    try {
      // Only what differs from ky's defaults: each option given costs ky a merge.
      const options: Options = {
        method: exchange.method,
        headers,
        timeout: exchange.timeout,
        context: { exchange },
        retry: retryOptions(exchange, this.#clock),
      };
      if (body !== undefined) options.body = body;
      if (exchange.signal !== undefined) options.signal = exchange.signal;
      response = await this.#ky(exchange.url, options);
    } catch (error) {
      const thrown = await failure(exchange, error, this.#clock, this.#secrets, version);
      exchange.link?.release();
      throw thrown;
    }
    this.#hooks.answered(exchange, response);
    return response;
  }

  /** The token request's POST (request-token.ts builds it): its answer's JSON. */
  async #post(url: string, operation: string, form: string): Promise<unknown> {
    // Shared by every caller waiting for a token, so no caller's signal or per-call options apply.
    const call = {
      method: 'POST',
      url,
      operation,
      credential: undefined,
      secrets: [],
      version: undefined,
    } as const;
    const exchange = this.#exchange(call, undefined);
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
