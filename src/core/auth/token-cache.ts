import type { Clock } from '../clock.js';
import type { Credential } from './credentials.js';
import type { IssuedToken } from './issued-token.js';

/**
 * Token renewal, for a token of lifetime L that expires at E:
 * - before E − min(60 s, L/2): the cached token, synchronously;
 * - advisory window, from E − min(60 s, L/2): the cached token, synchronously, and one background
 *   refresh (unless one is running or the last one failed less than a backoff ago);
 * - mandatory window, from E − min(10 s, L/6): callers wait for the refresh (unless the last one
 *   failed less than a backoff ago: then the still-valid token without waiting); if it fails they
 *   get the old token while it is valid;
 * - expired or no token: callers wait for the refresh; a failure rejects them, and so does every
 *   call until a backoff has passed (no refresh meanwhile): one request serves every waiting call, and
 *   an endpoint that is down sees a trickle, not a request (and its retries) per call.
 */
const ADVISORY_MARGIN_MS = 60_000;
const MANDATORY_MARGIN_MS = 10_000;
/** After a failed refresh, no new one before 1 s, then 2 s, 4 s, … up to 30 s; a success resets it. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
/**
 * The shortest time between the starts of two token requests, on the client's clock. A token is
 * used only within the life its answer gave it (`expires_in: 0` or 1 included), so what keeps a
 * short-lived token from costing a request per call is this gap with the single flight: at most
 * one request a second, which every call needing a token waits for.
 */
export const TOKEN_REQUEST_GAP_MS = 1_000;

/** The renewal point of a token of lifetime `lifetimeMs` that expires at `expiresAt`: the advisory window's start. */
export function renewalPoint(expiresAt: number, lifetimeMs: number): number {
  return expiresAt - Math.min(ADVISORY_MARGIN_MS, lifetimeMs / 2);
}

/** Where the cache gets tokens (SharedTokenSource), and drops one a 401 refused from wherever else it is kept. */
export interface TokenSource {
  obtain(): Promise<IssuedToken>;
  drop?(token: string): Promise<void>;
}

/** How long to wait after the `failures`-th consecutive failed refresh (1-based). */
export function refreshBackoffMs(failures: number): number {
  // 2 ** n is Infinity past n = 1023: still the maximum.
  return Math.min(BACKOFF_FIRST_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
}

const ignore = () => {};
/** setTimeout's longest delay; a longer time-out means no bound. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * OAuth client-credentials token, cached and renewed ahead of expiry (windows above). One refresh
 * at a time, shared by every caller (single flight); its rejection reaches only callers waiting for
 * it, never `unhandledRejection`. A generation counter stops a refresh that started before an
 * `invalidate()` from installing its now-stale result. Time comes from the injected clock only.
 */
export class TokenCache implements Credential {
  readonly refreshable = true;
  readonly #source: TokenSource;
  readonly #clock: Clock;
  #token: string | undefined;
  #advisoryAt = 0;
  #mandatoryAt = 0;
  #expiresAt = 0;
  #inFlight: Promise<string> | undefined;
  #generation = 0;
  /** Consecutive failed refreshes, and when the next may start unless a caller has no usable token. */
  #failures = 0;
  #retryAt = 0;
  /** What the last refresh failed with: the answer, until {@link #retryAt}, of a caller without a token. */
  #failure: unknown;
  /** When the last token request started (client clock): the next waits {@link TOKEN_REQUEST_GAP_MS}. */
  #requestedAt = Number.NEGATIVE_INFINITY;

  constructor(source: TokenSource, clock: Clock) {
    this.#source = source;
    this.#clock = clock;
  }

  bearer(maxWaitMs?: number): string | Promise<string> {
    const token = this.#token;
    const now = this.#clock.now();
    if (token !== undefined && now < this.#advisoryAt) return token;
    const idle = this.#inFlight === undefined;
    const backingOff = now < this.#retryAt;
    // No usable token: within a backoff the last failure, else the refresh (in flight or a new one).
    if (token === undefined || now >= this.#expiresAt)
      return idle && backingOff ? Promise.reject(this.#failure) : this.#wait(maxWaitMs);
    if (now < this.#mandatoryAt) {
      if (idle && !backingOff) this.#start();
      return token;
    }
    // Mandatory window: wait for a refresh, unless one failed less than a backoff ago (then the
    // still-valid token at once, and no token request).
    return idle && backingOff ? token : this.#wait(maxWaitMs);
  }

  invalidate(token: string): boolean | Promise<boolean> {
    if (this.#token === token) {
      this.#token = undefined;
      this.#generation++;
    }
    return this.#source.drop?.(token).then(() => true) ?? true;
  }

  /** The refresh in flight (one is started if none), or the still-valid token if it fails. */
  #wait(maxWaitMs: number | undefined): Promise<string> {
    const joined = this.#inFlight;
    const settled = joined === undefined ? this.#start() : this.#join(joined, maxWaitMs);
    return settled.catch((error: unknown) => {
      const token = this.#token;
      if (token !== undefined && this.#clock.now() < this.#expiresAt) return token;
      throw error;
    });
  }

  /**
   * A refresh another call started, which may belong to a request that has ended: workerd drops such
   * promises, so they never settle, or reject at once without the refresh's own code running (it is
   * then still `#inFlight`). Either way it is abandoned and one new refresh, this call's, is waited
   * for; a live refresh is given `maxWaitMs`, the waiting call's time-out, on a real timer (as the
   * call's own time-out is), never the client's clock.
   */
  #join(flight: Promise<string>, maxWaitMs: number | undefined): Promise<string> {
    const restart = (): Promise<string> => {
      if (this.#inFlight === flight) this.#inFlight = undefined;
      return this.#inFlight ?? this.#start();
    };
    const orphaned = flight.catch((error: unknown) => {
      if (this.#inFlight === flight) return restart();
      throw error;
    });
    if (maxWaitMs === undefined || !(maxWaitMs < MAX_TIMER_MS)) return orphaned;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(restart()), maxWaitMs);
    });
    return Promise.race([orphaned, expired]).finally(() => clearTimeout(timer));
  }

  #start(): Promise<string> {
    const flight: Promise<string> = this.#refresh().finally(() => {
      if (this.#inFlight === flight) this.#inFlight = undefined;
    });
    this.#inFlight = flight;
    // A background refresh may have no caller waiting: its failure is recorded, never unhandled.
    flight.catch(ignore);
    return flight;
  }

  /**
   * One token request, at least {@link TOKEN_REQUEST_GAP_MS} after the last one started; records its
   * token (unless invalidated meanwhile) or its failure. The token's life counts from the request's
   * start: the answer's `expires_in` began when the service issued it, which is no earlier.
   */
  async #refresh(): Promise<string> {
    const generation = this.#generation;
    const gap = this.#requestedAt + TOKEN_REQUEST_GAP_MS - this.#clock.now();
    if (gap > 0) await this.#clock.sleep(gap);
    const startedAt = this.#clock.now();
    this.#requestedAt = startedAt;
    let issued: IssuedToken;
    try {
      issued = await this.#source.obtain();
    } catch (error) {
      this.#failures++;
      this.#failure = error;
      this.#retryAt = this.#clock.now() + refreshBackoffMs(this.#failures);
      throw error;
    }
    this.#failures = 0;
    this.#retryAt = 0;
    if (generation === this.#generation) {
      const lifetimeMs = issued.expires_in * 1000;
      this.#token = issued.access_token;
      this.#expiresAt = startedAt + lifetimeMs;
      this.#advisoryAt = renewalPoint(this.#expiresAt, lifetimeMs);
      this.#mandatoryAt = this.#expiresAt - Math.min(MANDATORY_MARGIN_MS, lifetimeMs / 6);
    }
    return issued.access_token;
  }
}
