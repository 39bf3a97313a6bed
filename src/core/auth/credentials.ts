import { invalid, TelephonyError } from '../errors.js';
import type { Pacer } from '../pacing/pacer.js';
import type { ClientCredentialsSettings } from './client-credentials.js';

/** One way of getting the bearer value for a request. */
export interface Credential {
  /** Whether a 401 may be answered by asking again: the call then has room for one repeat. */
  readonly refreshable: boolean;
  /**
   * The bearer value; a string when it is at hand, so the hot path allocates no promise.
   * @param maxWaitMs the calling attempt's time-out: how long it may wait on a renewal another call started
   */
  bearer(maxWaitMs?: number): string | Promise<string>;
  /**
   * Drops `token` after a 401. True (or a promise of true, once a shared copy is dropped too) when
   * asking again can give a different token.
   */
  invalidate(token: string): boolean | Promise<boolean>;
}

/** A fixed token or API key. */
export class StaticCredential implements Credential {
  readonly refreshable = false;
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
 * True when `value` can follow `Bearer ` in an HTTP header as is: not empty, and no control
 * character (CR, LF, NUL, tab, DEL, …) nor anything beyond Latin-1, which `fetch` would refuse or
 * which would split the header. The one rule for every credential source: a static `accessToken` or
 * `apiKey` (checked at construction), the `accessToken` function's value, an issued token.
 */
export function isHeaderSafe(value: string): boolean {
  return HEADER_SAFE.test(value);
}
/** What a refused bearer value is told (never the value). */
export const BEARER_RULE =
  'a non-empty string that can go in an HTTP header (no control character, tab included, nor non-Latin-1)';
/** One or more of space to `~` and U+0080 to U+00FF (code units: a surrogate is beyond Latin-1). */
const HEADER_SAFE = /^[ -~\x80-\xff]+$/;

/**
 * The user's `accessToken` function, asked at each request (it does its own caching). A rejection
 * fails the call with a `TelephonyError` (the function's error as `cause`); a value that breaks
 * {@link isHeaderSafe}'s rule with a `ValidationError` naming `accessToken`, as the same value given
 * as a static token is refused at construction (never the value). Nothing is sent.
 */
export class CallbackCredential implements Credential {
  readonly refreshable = true;
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
    // isHeaderSafe refuses the empty string too.
    if (typeof token !== 'string' || !isHeaderSafe(token))
      throw invalid('The accessToken function', 'accessToken', `must resolve to ${BEARER_RULE}`);
    return token;
  }
  invalidate(): boolean {
    return true;
  }
}

/**
 * The client-credentials flow (token cache, shared token, token request: client-credentials.ts),
 * its code loaded by `import()` when the client is made, so a bundle splits it off what a client
 * with another credential loads.
 */
export function clientCredentialsFlow(
  settings: ClientCredentialsSettings,
  pacer: Promise<Pacer>,
): Credential {
  return new LazyCredential(
    Promise.all([import('./client-credentials.js'), pacer]).then(([flow, loaded]) =>
      flow.clientCredentials(settings, loaded),
    ),
  );
}

/** A credential whose code is loaded on first use: it asks for a bearer once it is loaded. */
class LazyCredential implements Credential {
  readonly refreshable = true;
  readonly #load: Promise<Credential>;
  #loaded: Credential | undefined;

  constructor(load: Promise<Credential>) {
    this.#load = load.then((credential) => (this.#loaded = credential));
    // A load that fails rejects the calls that ask for a bearer, never `unhandledRejection`.
    this.#load.catch(() => {});
  }

  bearer(maxWaitMs?: number): string | Promise<string> {
    return this.#loaded?.bearer(maxWaitMs) ?? this.#load.then((credential) => credential.bearer(maxWaitMs));
  }

  invalidate(token: string): boolean | Promise<boolean> {
    // Only a bearer it gave can be refused, and it gives none before it is loaded.
    return this.#loaded?.invalidate(token) ?? false;
  }
}
