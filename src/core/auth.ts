import type { Clock } from './clock.js';
import { ResponseValidationError, TelephonyError } from './errors.js';

/** What a successful token request gave. */
export interface IssuedToken {
  access_token: string;
  expires_in: number;
  scope: string | undefined;
}

/** One way of getting the bearer value for a request. */
export interface Credential {
  /** The bearer value; a string when it is at hand, so the hot path allocates no promise. */
  bearer(): string | Promise<string>;
  /** Drops `token` after a 401. Returns true when asking again can give a different token. */
  invalidate(token: string): boolean;
}

/** A fixed token or API key. */
export class StaticCredential implements Credential {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  bearer(): string {
    return this.#value;
  }
  invalidate(): boolean {
    return false;
  }
}

/**
 * The user's `accessToken` function, asked at each request (it does its own caching). A rejection,
 * or a value that is not a non-empty string, fails the call with a `TelephonyError` (the function's
 * error as `cause`) before anything is sent.
 */
export class CallbackCredential implements Credential {
  readonly #get: () => Promise<string>;
  constructor(get: () => Promise<string>) {
    this.#get = get;
  }
  async bearer(): Promise<string> {
    let token: unknown;
    try {
      token = await this.#get();
    } catch (error) {
      throw new TelephonyError('The accessToken function failed', { cause: error });
    }
    if (typeof token !== 'string' || token === '') {
      throw new TelephonyError('The accessToken function must resolve to a non-empty string');
    }
    return token;
  }
  invalidate(): boolean {
    return true;
  }
}

/**
 * The token of a 2xx token answer, in SPEC.md's `{ data: {...} }` envelope or RFC 6749's bare form.
 * An answer without `access_token` and `expires_in` is a `ResponseValidationError`.
 */
export function issuedToken(answer: unknown, operation: string): IssuedToken {
  const parsed = answer as Record<string, unknown> | undefined;
  const data = parsed?.data as Record<string, unknown> | undefined;
  const payload = data?.access_token !== undefined ? data : parsed;
  const accessToken = payload?.access_token;
  const expiresIn = payload?.expires_in;
  if (typeof accessToken !== 'string' || typeof expiresIn !== 'number') {
    throw new ResponseValidationError(`${operation}: the token response lacks access_token or expires_in`, [
      {
        path: typeof accessToken !== 'string' ? 'access_token' : 'expires_in',
        message: 'missing or wrong type',
      },
    ]);
  }
  const scope = typeof payload?.scope === 'string' ? payload.scope : undefined;
  return { access_token: accessToken, expires_in: expiresIn, scope };
}

/** Renew this long before `expires_in` runs out (or at half the lifetime for short-lived tokens). */
const REFRESH_MARGIN_MS = 60_000;

/**
 * OAuth client-credentials token, cached until shortly before it expires. Concurrent callers on
 * a cold or expired cache share one token request (single flight). A generation counter stops a
 * refresh that started before an `invalidate()` from installing its now-stale result.
 */
export class TokenCache implements Credential {
  readonly #request: () => Promise<IssuedToken>;
  readonly #clock: Clock;
  #token: string | undefined;
  #renewAt = 0;
  #inFlight: Promise<string> | undefined;
  #generation = 0;

  constructor(request: () => Promise<IssuedToken>, clock: Clock) {
    this.#request = request;
    this.#clock = clock;
  }

  bearer(): string | Promise<string> {
    if (this.#token !== undefined && this.#clock.now() < this.#renewAt) return this.#token;
    this.#inFlight ??= this.#refresh();
    return this.#inFlight;
  }

  invalidate(token: string): boolean {
    if (this.#token === token) {
      this.#token = undefined;
      this.#generation++;
    }
    return true;
  }

  async #refresh(): Promise<string> {
    const generation = this.#generation;
    try {
      const issued = await this.#request();
      const lifetimeMs = issued.expires_in * 1000;
      if (generation === this.#generation) {
        this.#token = issued.access_token;
        this.#renewAt = this.#clock.now() + Math.max(lifetimeMs - REFRESH_MARGIN_MS, lifetimeMs / 2);
      }
      return issued.access_token;
    } finally {
      this.#inFlight = undefined;
    }
  }
}
