import type { APIPromise } from './response/api-promise.js';

/**
 * The seam between the HTTP core and the resources: resources describe a request, the
 * transport performs it with auth, retries, errors and events.
 */

/** HTTP methods the SDK sends. POST is not retried after a 5xx or a timeout (see the retry policy). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Per-call overrides: the optional last argument of every resource method. */
export interface RequestOptions {
  /** Cancels the request and any backoff wait; the call rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt. Defaults to the client's `timeout` (60 000). */
  timeout?: number | undefined;
  /** Retries after the first attempt. Defaults to the client's `maxRetries` (2). */
  maxRetries?: number | undefined;
  /**
   * Longest `Retry-After`, in seconds, to wait before retrying a 429 or 503; a longer one fails at once.
   * Defaults to the client's `maxRetryAfter` (60).
   */
  maxRetryAfter?: number | undefined;
  /**
   * Longest answer read, in bytes; a longer 2xx body rejects with `ResponseValidationError` (code
   * `response_too_large`). Defaults to the client's `maxResponseBytes` (8 MiB).
   */
  maxResponseBytes?: number | undefined;
  /** Extra request headers. They cannot replace `Authorization`. */
  headers?: Record<string, string> | undefined;
  /**
   * Milliseconds for the whole call: every attempt, every wait and the wait for a token; past it, or
   * when a wait would pass it, the call rejects with `APITimeoutError`. Defaults to the client's
   * `totalTimeout` (none).
   */
  totalTimeout?: number | undefined;
  /**
   * Query parameters this SDK version does not know yet, added after the typed params are checked. A key
   * the typed params name is a `ValidationError`.
   */
  extraQuery?: Record<string, QueryValue> | undefined;
  /**
   * Body fields this SDK version does not know yet, added to the JSON body after the typed params are
   * checked. A key the typed params name is a `ValidationError`, and so is `extraBody` for a call with no
   * JSON body.
   */
  extraBody?: Record<string, unknown> | undefined;
}

/** A query-string value: `undefined` and `null` are left out, a `Date` is sent as ISO 8601. */
export type QueryValue = string | number | boolean | Date | null | undefined;

/** A request to any documented path: `client.request`'s argument, and what resources hand the transport. */
export interface RequestSpec {
  /** HTTP method, any case (`'post'` is POST). A POST is retried only on 429 or a connection that never opened. */
  method: HttpMethod | Lowercase<HttpMethod>;
  /** Starts with `/v2/` or `/v1/`, appended to `baseUrl` or `baseUrlV1`: picks the address, the credential and the error shape. */
  path: string;
  /** Query parameters, wire names as is; `undefined` and `null` are left out, a `Date` is sent as ISO 8601. */
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON (`Date` values become ISO 8601 through `toJSON`). */
  body?: unknown;
  /** Extra request headers; they cannot replace `Authorization`. */
  headers?: Record<string, string> | undefined;
}

/** One logical request as the transport takes it: a {@link RequestSpec} and what custom resources may add. */
export interface RawRequest extends RequestSpec {
  /**
   * Values the request carries that no error may show, as the client's credentials are not (a
   * webhook signing secret in the body): an answer echoing one has it replaced by `[redacted]`.
   */
  secrets?: ReadonlyArray<string | undefined> | undefined;
  /**
   * `true`: a 2xx body that is not JSON resolves to `undefined` instead of rejecting with
   * `ResponseValidationError` — for answers whose body SPEC.md does not show.
   */
  lenient?: boolean | undefined;
  /**
   * For a DELETE: the body to resolve with when a retry answers 404 after an earlier attempt may have
   * reached the service (a timeout, a reset, a 5xx): that attempt did what was asked, and its answer was
   * lost. Without it, that 404 rejects with `NotFoundError` as any other.
   */
  ifGone?: unknown;
}

/**
 * Performs requests with the client's auth, retries, errors and events: `client.transport`, for
 * custom resource classes. Most code wants {@link TelephonyClient.request} instead.
 */
export interface Transport {
  /**
   * Performs the request and resolves to the parsed JSON body of the 2xx answer (`undefined`
   * when the body is empty). Each attempt's `timeout` covers reading the body too. Rejects with a `TelephonyError` subclass, never anything else.
   */
  send(request: RawRequest, options?: RequestOptions): APIPromise<unknown>;
  /**
   * Same auth, retries, errors and events as `send`, but resolves to the raw 2xx `Response`
   * with its body unread, for answers the caller reads itself (a recording's stream). `timeout`
   * covers the wait for the headers; the call's `signal` still stops the body. `path` may also be an
   * absolute URL, accepted only on the origin of the configured base URL for its version, so a
   * credential is never sent to another host. `.withResponse()` gives that same `Response` as `data`
   * and `response`, its body still unread.
   */
  download(request: RawRequest, options?: RequestOptions): APIPromise<Response>;
}

/**
 * A resource's copy of itself whose requests go through another transport: a traced method runs on
 * one bound to its traced call (tracing/trace-methods.ts). A copy, not a view made with
 * `Object.create`: a method that reads the resource's `#private` members needs a real instance.
 */
export const withTransport: unique symbol = Symbol('withTransport');
