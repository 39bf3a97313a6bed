import type { Clock } from '../clock.js';
import type { SharedStateGuard } from '../pacing/guard.js';
import type { SharedToken } from '../pacing/shared-state.js';
import type { IssuedToken } from './issued-token.js';

/** How long a holder may take to get a token before another client may try (a holder that dies frees it). */
const LEASE_MS = 30_000;
/** How often a client waiting for another's token request looks for it (one poller per client). */
const POLL_MS = 100;

/** Whether `token` is before its renewal point (`min(60 s, lifetime / 2)` before expiry, as TokenCache). */
function fresh(token: SharedToken, now: number): boolean {
  const lifetime = token.expiresAt - token.obtainedAt;
  return now < token.expiresAt - Math.min(60_000, lifetime / 2);
}

/**
 * The OAuth token across every client sharing a state: at most one token request in flight per
 * token URL, client id and scope (`key`), under a lock with a lease; the others wait for it and use
 * the token it stored. A failing store falls back to this client's own token request.
 */
export class SharedTokenSource {
  readonly #guard: SharedStateGuard;
  readonly #key: string;
  readonly #clock: Clock;
  readonly #request: () => Promise<IssuedToken>;
  readonly #holder = `${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

  constructor(guard: SharedStateGuard, key: string, clock: Clock, request: () => Promise<IssuedToken>) {
    this.#guard = guard;
    this.#key = key;
    this.#clock = clock;
    this.#request = request;
  }

  /** A token: the shared one while it is fresh, else one this client requests under the lock. */
  async obtain(): Promise<IssuedToken> {
    const key = this.#key;
    for (;;) {
      const shared = await this.#read();
      if (shared !== undefined) return shared;
      const now = this.#clock.now();
      if (await this.#guard.run('lockToken', (state) => state.lockToken(key, this.#holder, LEASE_MS, now))) {
        // Another client may have stored its token and freed the lock since the read: use that one.
        const stored = await this.#read();
        if (stored === undefined) return this.#requestUnderLock();
        await this.#guard.run('unlockToken', (state) => state.unlockToken(key, this.#holder));
        return stored;
      }
      await this.#clock.sleep(POLL_MS);
    }
  }

  /** The shared token while it is fresh. */
  async #read(): Promise<IssuedToken | undefined> {
    const now = this.#clock.now();
    const shared = await this.#guard.run('readToken', (state) => state.readToken(this.#key, now));
    if (shared === undefined || !fresh(shared, now)) return undefined;
    return {
      access_token: shared.accessToken,
      expires_in: (shared.expiresAt - now) / 1000,
      scope: undefined,
    };
  }

  /** Drops the shared token if it is still `refused` (a 401), so no client is handed it again. */
  drop(refused: string): Promise<void> {
    return this.#guard.run('dropToken', (state) => state.dropToken(this.#key, refused));
  }

  async #requestUnderLock(): Promise<IssuedToken> {
    let issued: IssuedToken;
    try {
      issued = await this.#request();
    } catch (error) {
      await this.#guard.run('unlockToken', (state) => state.unlockToken(this.#key, this.#holder));
      throw error;
    }
    const now = this.#clock.now();
    const token = {
      accessToken: issued.access_token,
      expiresAt: now + issued.expires_in * 1000,
      obtainedAt: now,
    };
    await this.#guard.run('writeToken', (state) => state.writeToken(this.#key, token, this.#holder));
    return issued;
  }
}
