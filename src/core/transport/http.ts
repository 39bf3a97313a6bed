import ky, { type KyInstance, type Options } from 'ky';
import {
  CallbackCredential,
  type Credential,
  clientCredentialsFlow,
  StaticCredential,
} from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import { APIUserAbortError, invalid, NotFoundError } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import { type ClientOptions, DEFAULTS, validateHeaders, validateRequestOptions } from '../options.js';
import { Pacing } from '../pacing/pacing.js';
import { budgetOf } from '../pacing/plans.js';
import { mergeHeaders } from '../request/headers.js';
import { methodOf, operationName } from '../request/method.js';
import { resolveTarget } from '../request/route.js';
import { joinUrl } from '../request/url.js';
import { parseJson, parseLenient } from '../response/body.js';
import { currentOperation } from '../tracing/current.js';
import type { RawRequest, RequestOptions, Transport } from '../types.js';
import { Exchange, type ExchangeCall } from './exchange.js';
import { failure } from './failure.js';
import { AttemptHooks } from './hooks.js';
import { readText } from './read-body.js';
import { KY_RETRY, retryOptions } from './retry.js';
import { follow, releasing } from './signals.js';

const TOKEN_PATH = '/v2/oauth/token';

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
  readonly #maxResponseBytes: number;
  readonly #defaultHeaders: Record<string, string>;
  /** Every credential the client holds, replaced wherever an error would show it. */
  readonly #secrets: ReadonlyArray<string | undefined>;
  /** The expressions that find them in an answer, compiled once (response/redact.ts). */
  readonly #patterns = new Map<string, RegExp>();

  constructor(options: ClientOptions, clock: Clock, events: ClientEmitter) {
    const { accessToken, apiKey, clientId, clientSecret } = options;
    const budget = budgetOf(options.rateLimit);
    // The longest wait this client accepts, and so the longest a 429 of its own may pause the account.
    const maxPauseMs = (options.maxRetryAfter ?? DEFAULTS.maxRetryAfter) * 1000;
    const pacing = new Pacing(
      [options, budget, maxPauseMs, options.timeout ?? DEFAULTS.timeout, clock, events],
      budget !== undefined || options.sharedState !== undefined || clientSecret !== undefined,
    );
    this.#hooks = new AttemptHooks(clock, events, pacing);
    this.#ky = ky.create({
      // globalThis.fetch is read per call so a fetch patched after construction (msw) is used.
      fetch: (options.fetch ??
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
      const scope = Array.isArray(options.scope) ? options.scope.join(' ') : options.scope;
      const post = (form: string) => this.#postToken(form);
      const settings = { baseUrl: options.baseUrl, clientId, clientSecret, scope, clock, events, post };
      this.#v2 = clientCredentialsFlow(settings, pacing.parts());
    }
    if (apiKey !== undefined) this.#v1 = new StaticCredential(apiKey);
    this.#maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.#timeout = options.timeout ?? DEFAULTS.timeout;
    this.#maxRetryAfterMs = maxPauseMs;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULTS.maxResponseBytes;
    this.#defaultHeaders = mergeHeaders({}, options.defaultHeaders, undefined);
    this.#secrets = [clientSecret, apiKey, staticToken];
  }

  async send(request: RawRequest, options?: RequestOptions): Promise<unknown> {
    const exchange = this.#prepare(request, options, false);
    let response: Response;
    try {
      response = await this.#fetch(exchange);
    } catch (error) {
      const { ifGone } = request;
      if (
        ifGone !== undefined &&
        exchange.method === 'DELETE' &&
        error instanceof NotFoundError &&
        exchange.mayHaveArrived
      )
        return ifGone;
      throw error;
    }
    try {
      const text = await readText(exchange, response);
      return request.lenient ? parseLenient(text) : parseJson(text, response.status, exchange.operation);
    } finally {
      exchange.link?.release();
    }
  }

  async download(request: RawRequest, options?: RequestOptions): Promise<Response> {
    const exchange = this.#prepare(request, options, true);
    const response = await this.#fetch(exchange);
    const { link } = exchange;
    if (link === undefined || response.body === null) {
      link?.release();
      return response;
    }
    // The caller reads this body, so the link to its signal stays (aborting still stops the read)
    // until the body ends, fails or is cancelled: a long-lived signal must not keep every download.
    const wrapped = new Response(releasing(response.body, link), response);
    Object.defineProperty(wrapped, 'url', { value: response.url });
    return wrapped;
  }

  /** The request checked and shaped (nothing is sent yet): a `ValidationError` is thrown here. */
  #prepare(request: RawRequest, options: RequestOptions | undefined, allowAbsolute: boolean): Exchange {
    validateRequestOptions(options);
    validateHeaders(request.headers);
    const method = methodOf(request.method);
    const { version, url, shown } = resolveTarget(request, allowAbsolute, this.#baseUrl, this.#baseUrlV1);
    const credential = version === 'v2' ? this.#v2 : this.#v1;
    if (credential === undefined) {
      const option = version === 'v2' ? 'clientId and clientSecret, or accessToken' : 'apiKey';
      throw invalid(
        operationName(request),
        version === 'v2' ? 'accessToken' : 'apiKey',
        `set ${option} for ${version} calls`,
      );
    }
    const headers = mergeHeaders(this.#defaultHeaders, request.headers, options?.headers);
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    return this.#exchange(
      {
        method,
        url,
        shownUrl: shown ?? url,
        operation: operationName({ method, path: shown ?? request.path }),
        credential,
        secrets: request.secrets ?? [],
        version,
        op: currentOperation(),
        headers,
        body,
      },
      options,
    );
  }

  /** The call: what it is, and the client's settings under the call's own options. */
  #exchange(call: ExchangeCall, options: RequestOptions | undefined): Exchange {
    const caller = options?.signal;
    return new Exchange(call, {
      link: caller === undefined ? undefined : follow(caller),
      timeout: options?.timeout ?? this.#timeout,
      maxRetries: options?.maxRetries ?? this.#maxRetries,
      maxRetryAfterMs:
        options?.maxRetryAfter === undefined ? this.#maxRetryAfterMs : options.maxRetryAfter * 1000,
      maxResponseBytes: options?.maxResponseBytes ?? this.#maxResponseBytes,
    });
  }

  /** Runs the attempts through ky; resolves to the 2xx answer (body unread), rejects with a TelephonyError. */
  async #fetch(exchange: Exchange): Promise<Response> {
    let response: Response;
    try {
      // Only what differs from ky's defaults: each option given costs ky a merge.
      const options: Options = {
        method: exchange.method,
        timeout: exchange.timeout,
        context: { exchange },
        retry: retryOptions(exchange, this.#clock),
      };
      const { headers, body, signal } = exchange;
      // No headers (a GET without default or call headers) is no option: ky builds three `Headers` for one.
      for (const _ in headers) {
        options.headers = headers;
        break;
      }
      if (body !== undefined) options.body = body;
      if (signal !== undefined) options.signal = signal;
      response = await this.#ky(exchange.url, options);
    } catch (error) {
      const secrets = [...this.#secrets, ...this.#hooks.held, exchange.bearer, ...exchange.secrets];
      const thrown = await failure(exchange, error, this.#clock, secrets, this.#patterns);
      // A cancelled attempt is no failure of the attempt (HTTP semantic conventions): no error.type.
      exchange.endSpan(undefined, thrown instanceof APIUserAbortError ? undefined : thrown.name);
      exchange.link?.release();
      throw thrown;
    }
    this.#hooks.answered(exchange, response);
    return response;
  }

  /**
   * The token request's POST (auth/request-token.ts builds its form and checks the answer, with the
   * client-credentials code a browser loads on first use): the answer's JSON.
   */
  async #postToken(form: string): Promise<{ answer: unknown; operation: string }> {
    const operation = operationName({ method: 'POST', path: TOKEN_PATH });
    // Set: only a v2 call asks for a token, and resolveTarget refuses one without baseUrl.
    const url = joinUrl(this.#baseUrl as string, TOKEN_PATH);
    // Shared by every caller waiting for a token, so no caller's signal (no link to release) or
    // per-call options apply.
    const exchange = this.#exchange(
      {
        method: 'POST',
        url,
        shownUrl: url,
        operation,
        credential: undefined,
        secrets: [],
        version: undefined,
        op: this.#hooks.asker,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      },
      undefined,
    );
    const response = await this.#fetch(exchange);
    return { answer: parseJson(await readText(exchange, response), response.status, operation), operation };
  }
}
