import type { HttpMethod } from './transport.js';

/** Emitted before each attempt (attempt 0 is the first try). */
export interface RequestEvent {
  method: HttpMethod;
  url: string;
  attempt: number;
}

/** Emitted when an attempt got an HTTP answer, whatever its status. */
export interface ResponseEvent extends RequestEvent {
  status: number;
  durationMs: number;
}

/** Emitted before a backoff wait. `reason` is `status 503`, `timeout`, `connection` … */
export interface RetryEvent extends RequestEvent {
  delayMs: number;
  reason: string;
}

/** A new OAuth access token was obtained. The token itself is never in the payload. */
export interface TokenEvent {
  expires_in: number;
  scope: string | undefined;
}

/** Events of `TelephonyClient` (eventemitter3 map: name → listener arguments). */
export interface ClientEvents {
  request: [RequestEvent];
  response: [ResponseEvent];
  retry: [RetryEvent];
  token: [TokenEvent];
}
