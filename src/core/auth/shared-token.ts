import type { Clock } from '../clock.js';
import type { FailSafeState } from '../pacing/fail-safe-state.js';
import type { IssuedToken } from './issued-token.js';
import { renewalPoint, type TokenSource } from './token-cache.js';

/**
 * The token lock's timing. A holder's lease is short and renewed while its token request runs, so
 * one that dies blocks the others for one lease (seconds), while a slow request keeps its lock. The
 * renewal runs on real timers, not the client's clock: a fake or manual clock resolves every sleep
 * at once, and a renewal loop on it would spin.
 */
export interface TokenLockTiming {
  /** How long a holder keeps the lock unless it renews it. */
  leaseMs: number;
  /** How often a holder renews its lease while its token request runs. */
  renewMs: number;
  /** How often a client waiting for another's token looks for it (on the client's clock). */
  pollMs: number;
  /** How long it waits for another's token before requesting one itself (a live holder may hang). */
  waitMs: number;
}

const TOKEN_LOCK: TokenLockTiming = { leaseMs: 4_000, renewMs: 1_500, pollMs: 100, waitMs: 10_000 };

/**
 * The OAuth token across every client sharing a state: at most one token request in flight per
 * token URL, client id and scope (`key`), under a lock whose lease its holder renews (timing above);
 * the others wait for it and use the token it stored. A failing store falls back to this client's
 * own token request.
 */
export class SharedTokenSource implements TokenSource {
  readonly #failSafe: FailSafeState;
  readonly #key: string;
  readonly #clock: Clock;
  readonly #request: () => Promise<IssuedToken>;
  readonly #timing: TokenLockTiming;
  readonly #holder = `${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

  constructor(
    failSafe: FailSafeState,
    key: string,
    clock: Clock,
    request: () => Promise<IssuedToken>,
    timing: TokenLockTiming = TOKEN_LOCK,
  ) {
    this.#failSafe = failSafe;
    this.#key = key;
    this.#clock = clock;
    this.#request = request;
    this.#timing = timing;
  }

  /**
   * A token: the shared one while it is fresh, else one this client requests under the lock. A client
   * that waited {@link TokenLockTiming.waitMs} for another holder requests one itself: a holder that
   * hangs while alive (renewing its lease) costs the others one more token request, never their calls.
   */
  async obtain(): Promise<IssuedToken> {
    const { pollMs, waitMs } = this.#timing;
    const giveUpAt = this.#clock.now() + waitMs;
    for (;;) {
      const shared = await this.#read();
      if (shared !== undefined) return shared;
      if (await this.#lock()) {
        // Another client may have stored its token and freed the lock since the read: use that one.
        const stored = await this.#read();
        if (stored === undefined) return this.#requestAndStore(true);
        await this.#unlock();
        return stored;
      }
      if (this.#clock.now() >= giveUpAt) return this.#requestAndStore(false);
      await this.#clock.sleep(pollMs);
    }
  }

  /** Takes the lock, or renews this holder's lease; never another holder's (the store checks the holder). */
  #lock(): Promise<boolean> {
    const now = this.#clock.now();
    const { leaseMs } = this.#timing;
    return this.#failSafe.run('lockToken', (state) => state.lockToken(this.#key, this.#holder, leaseMs, now));
  }

  #unlock(): Promise<void> {
    return this.#failSafe.run('unlockToken', (state) => state.unlockToken(this.#key, this.#holder));
  }

  /** The shared token while it is fresh. */
  async #read(): Promise<IssuedToken | undefined> {
    const now = this.#clock.now();
    const shared = await this.#failSafe.run('readToken', (state) => state.readToken(this.#key, now));
    // Past its renewal point (as TokenCache's), it is renewed rather than handed out.
    if (shared === undefined || now >= renewalPoint(shared.expiresAt, shared.expiresAt - shared.obtainedAt))
      return undefined;
    return { access_token: shared.accessToken, expires_in: (shared.expiresAt - now) / 1000 };
  }

  /** Drops the shared token if it is still `refused` (a 401), so no client is handed it again. */
  drop(refused: string): Promise<void> {
    return this.#failSafe.run('dropToken', (state) => state.dropToken(this.#key, refused));
  }

  /** One token request, its lease renewed meanwhile when `locked`; its token is stored for every client. */
  async #requestAndStore(locked: boolean): Promise<IssuedToken> {
    let renewal: ReturnType<typeof setInterval> | undefined;
    if (locked) {
      renewal = setInterval(
        () =>
          void this.#lock().then((held) => {
            // Lost (a renewal came too late and another holder took over): the request goes on unrenewed.
            if (!held) clearInterval(renewal);
          }),
        this.#timing.renewMs,
      );
      (renewal as { unref?: () => void }).unref?.();
    }
    // The token's life counts from the request's start, as TokenCache's does.
    const startedAt = this.#clock.now();
    let issued: IssuedToken;
    try {
      issued = await this.#request();
    } catch (error) {
      if (locked) await this.#unlock();
      throw error;
    } finally {
      clearInterval(renewal);
    }
    const token = {
      accessToken: issued.access_token,
      expiresAt: startedAt + issued.expires_in * 1000,
      obtainedAt: startedAt,
    };
    // Frees the lock only if this client still holds it.
    await this.#failSafe.run('writeToken', (state) => state.writeToken(this.#key, token, this.#holder));
    return issued;
  }
}
