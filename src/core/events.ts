import type { HttpMethod } from './transport.js';

/** Payload of `'request'`: emitted before each attempt, retries and the token request included. */
export interface RequestEvent {
  /** HTTP method of the attempt. */
  method: HttpMethod;
  /** Full URL with query string. Credentials travel in headers, never in the URL. */
  url: string;
  /** 0 for the first try, 1 for the first retry, … */
  attempt: number;
}

/** Payload of `'response'`: emitted when an attempt got an HTTP answer, whatever its status. */
export interface ResponseEvent extends RequestEvent {
  /** HTTP status of the answer. */
  status: number;
  /** Milliseconds from the start of the attempt to the response headers (body not read yet). */
  durationMs: number;
}

/** Payload of `'retry'`: emitted before a backoff wait; `attempt` is the attempt that just failed. */
export interface RetryEvent extends RequestEvent {
  /** Milliseconds the client waits before the next attempt (`Retry-After`, or jittered backoff). */
  delayMs: number;
  /** Why: `status 503`, `status 429`, `timeout` or `connection`. */
  reason: string;
}

/** Payload of `'token'`: a new OAuth access token was obtained. The token itself is never in the payload. */
export interface TokenEvent {
  /** Lifetime of the new token in seconds, as the service returned it. The client renews it 60 s before it runs out (at half its lifetime when that is later). */
  expires_in: number;
  /** Scopes granted, space-separated; `undefined` when the answer named none. */
  scope: string | undefined;
}

/**
 * Events of {@link TelephonyClient} (eventemitter3 map: name → listener arguments). Listeners run
 * synchronously; no payload contains a credential.
 *
 * @example
 * ```ts
 * client.on('retry', ({ method, url, attempt, delayMs, reason }) =>
 *   console.warn(`${method} ${url}: attempt ${attempt} failed (${reason}), retrying in ${delayMs} ms`));
 * ```
 */
export interface ClientEvents {
  /** Before each attempt. */
  request: [RequestEvent];
  /** An attempt got an HTTP answer (any status). */
  response: [ResponseEvent];
  /** An attempt failed and will be repeated after `delayMs`. */
  retry: [RetryEvent];
  /** A new OAuth access token was obtained (client credentials only). */
  token: [TokenEvent];
}
