import { EventEmitter } from 'eventemitter3';
import type { HttpMethod } from './types.js';

/** Payload of `'request'`: emitted before each attempt, retries and the token request included. */
export interface RequestEvent {
  /** HTTP method of the attempt. */
  method: HttpMethod;
  /** Full URL with query string. Credentials travel in headers, never in the URL. */
  url: string;
  /** 0 for the first try, 1 for the first retry, … */
  attempt: number;
  /** The id the SDK gave the call: the same for each of its attempts, and on the error it may reject with. */
  requestId: string;
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
  /** Why: `status 503`, `status 429`, `timeout`, `connection`, or `status 401` (repeated once with a new token, no wait). */
  reason: string;
}

/** Payload of `'token'`: a new OAuth access token was obtained. The token itself is never in the payload. */
export interface TokenEvent {
  /**
   * Lifetime of the new token in seconds, as the client uses it: the answer's `expires_in` (a numeric
   * string read as a number) kept between 10 s and one day, or 300 when it was missing or unreadable.
   * The client renews it 60 s before it runs out (at half its lifetime when that is later).
   */
  expires_in: number;
  /** Scopes granted, space-separated; `undefined` when the answer named none. */
  scope: string | undefined;
}

/** Payload of `'throttle'`: a call waits before sending, for rate budget or a 429's pause. */
export interface ThrottleEvent {
  /** Milliseconds the call waits. */
  waitMs: number;
  /** `'pacing'`: the `rateLimit` budget is spent until then; `'paused'`: a 429's `Retry-After` paused the account. */
  reason: 'pacing' | 'paused';
}

/** Payload of `'shared_state_error'`: the shared state failed or did not answer; the call went on with local state. */
export interface SharedStateErrorEvent {
  /** What was asked of the state: `'reserve'`, `'pause'`, or a token operation. */
  operation: string;
  /** What went wrong (the store's message; never a credential). */
  error: Error;
}

/** `'warning'` `rate_limit_above_plan`: a 429 named a plan smaller than the client's `rateLimit` (said once). */
export interface RateLimitAbovePlanWarning {
  /** The warning's kind: the client's `rateLimit` is above what the service enforces. */
  code: 'rate_limit_above_plan';
  /** What is wrong and what to change. */
  message: string;
  /** Requests per minute the client's `rateLimit` allows. */
  rateLimit: number;
  /** Requests per minute the 429 said the service enforces. */
  planLimit: number;
}

/** `'warning'` `v1_deprecated`: the client's first v1 call (SPEC.md, Versioning: v1 is deprecated); said once per client. */
export interface V1DeprecatedWarning {
  /** The warning's kind: a v1 call, once per client (SPEC.md, Versioning). */
  code: 'v1_deprecated';
  /** The call that met it (as in its other events, logs and error). */
  requestId: string;
  /** What is deprecated, since when, and what it means. */
  message: string;
  /** v1's deprecation date, `'2023-12-31'`. */
  deprecatedOn: string;
}

/**
 * `'warning'` `deprecated`: an answer carried a `Deprecation` (RFC 9745) or `Sunset` (RFC 8594) header;
 * said once per method and path.
 */
export interface DeprecatedWarning {
  /** The warning's kind: an answer carried `Deprecation` or `Sunset`, once per method and path. */
  code: 'deprecated';
  /** The call that met it (as in its other events, logs and error). */
  requestId: string;
  /** The operation, and what the headers said. */
  message: string;
  /** The method of the call the answer was for. */
  method: HttpMethod;
  /** The path the answer was for, without a query string. */
  path: string;
  /** When the service deprecated it (or will), ISO 8601; `undefined` when the header gave no date. */
  deprecation: string | undefined;
  /** When the service will stop answering it, ISO 8601; `undefined` without a readable `Sunset`. */
  sunset: string | undefined;
}

/** Payload of `'warning'`: something the user should change, said once (see each `code`). */
export type WarningEvent = RateLimitAbovePlanWarning | V1DeprecatedWarning | DeprecatedWarning;

/**
 * Events of {@link TelephonyClient} (name → listener arguments). Listeners run
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
  /** A call waits for rate budget (`rateLimit`) or for a 429's pause to pass. */
  throttle: [ThrottleEvent];
  /** The `sharedState` failed; the call went on with the client's own state. */
  shared_state_error: [SharedStateErrorEvent];
  /**
   * Something to change, said once: a 429 showed the plan is smaller than `rateLimit`, the first v1 call
   * (v1 is deprecated), or an answer marked deprecated by the service (`Deprecation`, `Sunset`).
   */
  warning: [WarningEvent];
}

/** A listener of one client event. */
export type ClientListener<Name extends keyof ClientEvents> = (...payload: ClientEvents[Name]) => void;

// Registered as the listener with the user's function as its `this`: eventemitter3 then removes it by
// (shielded, context), so `off(name, fn)` and `once` keep their meaning while every call is shielded.
function shielded(this: (...payload: unknown[]) => unknown, ...payload: unknown[]): void {
  try {
    const result = this(...payload);
    // An async listener's rejection would otherwise be unhandled, which ends a Node process.
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
      (result as Promise<unknown>).then(undefined, () => {});
  } catch {
    // Listeners observe calls; one that throws must not fail the call or keep others from running.
  }
}

/**
 * The client's event registry: eventemitter3 underneath, but `emit` stays internal and every listener
 * runs shielded, so no listener can fail a request, skip another listener or lose a token.
 */
export class ClientEmitter {
  readonly #emitter = new EventEmitter();

  /**
   * The events that may have a listener: named by `on` and `once`, dropped by an `off` that leaves
   * none (a `once` that fired stays named, which costs an `emit` to no one). A set, read without a
   * call: the transport builds no payload of a per-attempt event nobody listens to.
   */
  readonly heard = new Set<keyof ClientEvents>();

  on<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): void {
    this.#emitter.on(name, shielded, listener);
    this.heard.add(name);
  }

  once<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): void {
    this.#emitter.once(name, shielded, listener);
    this.heard.add(name);
  }

  // Without a listener, every one of `name` goes: eventemitter3 then matches on `shielded` alone, which
  // every listener registered here is.
  off<Name extends keyof ClientEvents>(name: Name, listener?: ClientListener<Name>): void {
    this.#emitter.off(name, shielded, listener);
    if (this.#emitter.listenerCount(name) === 0) this.heard.delete(name);
  }

  /**
   * Where every `'warning'` is also written (the client's log, at warn): kept apart from the listeners,
   * so `off('warning')` cannot silence the log.
   */
  onWarning: ((warning: WarningEvent) => void) | undefined;

  emit<Name extends keyof ClientEvents>(name: Name, payload: ClientEvents[Name][0]): void {
    if (name === 'warning') this.onWarning?.(payload as WarningEvent);
    this.#emitter.emit(name, payload);
  }
}
