import type { FailSafeState } from './fail-safe-state.js';

/**
 * State that clients share so that a fleet behaves like one client: the rate budget, 429 pauses and
 * the OAuth token. An in-memory state of its own is every client's default;
 * `telephony-sdk/redis` shares it across processes. Keys passed in never contain a secret or a
 * token; values may hold the access token.
 */

/** A sliding window: at most `limit` requests in any `windowMs`. */
export interface RateBudget {
  /** Requests allowed in any window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /**
   * Longest wait the caller accepts: a slot farther away is not taken (the reservation still answers
   * its wait, and the caller gives up without spending the budget). Default: any.
   */
  maxWaitMs?: number | undefined;
  /**
   * The client's own share of the plan, as the wait it allows (the store may be missing others'
   * sends): while fewer than `refill` processes have written their sends back, a slot it would put
   * later than the window does is not taken ({@link Reservation.retry} `'refilling'`). Default 0.
   */
  minWaitMs?: number | undefined;
  /**
   * The window's name ({@link Reservation.epoch}) this client last saw: a store whose window has
   * another name lost the one the client knew, takes no slot and answers `retry: 'lost'`.
   */
  epoch?: string | undefined;
  /** Processes expected to write their sends back after a loss (the fleet before it); default unknown. */
  refill?: number | undefined;
  /**
   * Send times of this client (ms before `now`; negative: still ahead) that the store may not hold:
   * taken while it failed, or lost with it (a restart). A store writes them into the window first.
   */
  seed?: number[] | undefined;
  /**
   * Slots this client was granted ({@link Reservation.slot}) and did not use: the store had lost its
   * window, and the call was refused or sent later on the client's share. A store removes them first,
   * so that a send `seed` writes back is not counted twice.
   */
  release?: string[] | undefined;
}

/** What a reservation decided: send after `waitMs` (0: at once), and why it waits. */
export interface Reservation {
  /** Milliseconds to wait before sending; the slot is taken for that time. */
  waitMs: number;
  /** `'paused'`: a 429 paused the scope; `'pacing'`: the budget is spent until then; `undefined`: no wait. */
  reason: 'pacing' | 'paused' | undefined;
  /**
   * Reservations the store's window held before this one (seeds included); optional. Fewer than this
   * client knows it sent tells it the store lost them (a restart): it then paces on its own share
   * and seeds its sends again.
   */
  held?: number | undefined;
  /** Processes the store has seen reserving lately (the fleet's size), if it keeps count; optional. */
  members?: number | undefined;
  /**
   * Names the store's window data, optional: a different one than the client saw before says the
   * store lost it (a restart, a flush), even when other clients have already refilled the window.
   */
  epoch?: string | undefined;
  /** Names the slot the store took, for a later {@link RateBudget.release}; optional. */
  slot?: string | undefined;
  /**
   * Set when the store took no slot and the client asks again: `'lost'`, the window named by
   * {@link RateBudget.epoch} is gone (ask with the client's sends as `seed`); `'refilling'`, others
   * may not have written theirs back yet and the client's share would send later (ask shortly).
   */
  retry?: 'lost' | 'refilling' | undefined;
  /** Processes that wrote their sends back into this window since it was created anew; optional. */
  refilled?: number | undefined;
}

/**
 * The rate budget of a client over a store that can fail or lose its window: `reserve` in place of
 * the store's own (see {@link SharedState.fleetBudget}).
 */
export interface FleetBudget {
  /**
   * Reserves `scope`'s next send time under `budget` (its `maxWaitMs` set); the store has `boundMs` to
   * answer. May add to `budget` what it asks of the store. Rejects with `signal`'s reason once the
   * call is aborted: a call that asks again (a hold) stops asking.
   */
  reserve(
    scope: string,
    budget: RateBudget,
    now: number,
    boundMs: number,
    signal?: AbortSignal,
  ): Promise<Reservation>;
}

/** An access token shared by every client of one state. */
export interface SharedToken {
  /** The bearer value. */
  accessToken: string;
  /** When it expires, milliseconds since the epoch. */
  expiresAt: number;
  /** When it was obtained, milliseconds since the epoch (for the renewal windows). */
  obtainedAt: number;
}

/**
 * Shared state of the clients that use it. Implement it over another store to share a fleet's budget
 * there; each method is one atomic operation (one round trip for a remote store). A method that
 * rejects or takes too long never fails a call: the client goes on with its own local state and
 * emits `'shared_state_error'`.
 */
export interface SharedState {
  /**
   * Reserves the next send time of `scope` (`<account>:v2`, `<account>:v1`): the earliest time, not
   * before `now` nor before a pause of the scope, at which `budget` holds (fewer than `limit`
   * reservations in the window ending then), and takes that slot. Without a budget, only the pause
   * is read. `now` is the client's clock; a store may use its own, the same for every process.
   */
  reserve(scope: string, budget: RateBudget | undefined, now: number): Promise<Reservation>;
  /**
   * Pauses `scope` for `ms` from now (a 429's `Retry-After`, at most the client's `maxRetryAfter`); a
   * longer pause already set is kept.
   */
  pause(scope: string, ms: number, now: number): Promise<void>;
  /** The token stored under `key`, if any and not expired. */
  readToken(key: string, now: number): Promise<SharedToken | undefined>;
  /**
   * Takes the right to request a new token for `key` for `leaseMs` (a holder that dies frees it when
   * the lease ends). `false` when another holder has it; the same holder taking it again gets `true`
   * and a new lease: the client renews its lease this way while its token request runs, so this must check
   * the holder atomically (a late renewal never takes another holder's lock). `now` as in `reserve`.
   */
  lockToken(key: string, holder: string, leaseMs: number, now: number): Promise<boolean>;
  /** Stores `token` under `key` until it expires, and frees the lock if `holder` still has it. */
  writeToken(key: string, token: SharedToken, holder: string): Promise<void>;
  /** Frees the lock of `key` if `holder` still has it (a failed token request). */
  unlockToken(key: string, holder: string): Promise<void>;
  /** Drops the token under `key` only if it is still `accessToken` (the one a 401 refused). */
  dropToken(key: string, accessToken: string): Promise<void>;
  /**
   * Optional: how a pacing client reserves through this store so that a store that fails or loses its
   * window cannot push the fleet past the plan (`redisState` gives its fleet share: docs/scale.md). Called
   * once per client, with the client's fail-safe state over the store. Without it, each reservation is the
   * store's, or the client's own in-memory state's while the store fails.
   * @internal How `telephony-sdk/redis` hands its stores' clients the fleet share; a wrapper around
   * `redisState` keeps the share by forwarding it.
   */
  fleetBudget?(failSafe: FailSafeState): FleetBudget;
}

interface Lock {
  holder: string;
  until: number;
}

/**
 * The default state: in memory, one per client. Same semantics as a shared store, so a client
 * without one paces and pauses itself exactly as a fleet does.
 */
export class MemoryState implements SharedState {
  /** Reserved send times per scope, ascending. */
  readonly #slots = new Map<string, number[]>();
  readonly #pauses = new Map<string, number>();
  readonly #tokens = new Map<string, SharedToken>();
  readonly #locks = new Map<string, Lock>();

  async reserve(scope: string, budget: RateBudget | undefined, now: number): Promise<Reservation> {
    return this.reserveNow(scope, budget, now);
  }

  /** {@link reserve}, answered in this step. */
  reserveNow(scope: string, budget: RateBudget | undefined, now: number): Reservation {
    const paused = this.#pauses.get(scope) ?? 0;
    let at = Math.max(now, paused);
    let reason: Reservation['reason'] = paused > now ? 'paused' : undefined;
    if (budget !== undefined) {
      const slots = this.log(scope, budget.windowMs, now);
      // The slot `limit` places back decides: the new one must be a whole window after it.
      const bound = slots[slots.length - budget.limit];
      if (bound !== undefined && bound + budget.windowMs > at) {
        at = bound + budget.windowMs;
        reason = 'pacing';
      }
      if (budget.maxWaitMs === undefined || at - now <= budget.maxWaitMs) insert(slots, at);
    }
    return { waitMs: at - now, reason };
  }

  /**
   * The slots of `scope` still in the window ending at `now`, ascending, expired ones dropped. Of a
   * client's local state with a shared store, its log of what it sent (FleetShare of telephony-sdk/redis
   * reads it and adds to it).
   */
  log(scope: string, windowMs: number, now: number): number[] {
    let slots = this.#slots.get(scope);
    if (slots === undefined) {
      slots = [];
      this.#slots.set(scope, slots);
    }
    // Slots are kept in ascending order: the expired ones are at the front.
    let expired = 0;
    while (expired < slots.length && (slots[expired] as number) <= now - windowMs) expired++;
    if (expired > 0) slots.splice(0, expired);
    return slots;
  }

  async pause(scope: string, ms: number, now: number): Promise<void> {
    this.#pauses.set(scope, Math.max(this.#pauses.get(scope) ?? 0, now + ms));
  }

  async readToken(key: string, now: number): Promise<SharedToken | undefined> {
    const token = this.#tokens.get(key);
    return token !== undefined && token.expiresAt > now ? token : undefined;
  }

  async lockToken(key: string, holder: string, leaseMs: number, now: number): Promise<boolean> {
    const lock = this.#locks.get(key);
    if (lock !== undefined && lock.until > now && lock.holder !== holder) return false;
    this.#locks.set(key, { holder, until: now + leaseMs });
    return true;
  }

  async writeToken(key: string, token: SharedToken, holder: string): Promise<void> {
    this.#tokens.set(key, token);
    await this.unlockToken(key, holder);
  }

  async unlockToken(key: string, holder: string): Promise<void> {
    if (this.#locks.get(key)?.holder === holder) this.#locks.delete(key);
  }

  async dropToken(key: string, accessToken: string): Promise<void> {
    if (this.#tokens.get(key)?.accessToken === accessToken) this.#tokens.delete(key);
  }
}

/** Inserts `at` into ascending `slots`: nearly always at the end (later waits come later). */
export function insert(slots: number[], at: number): void {
  let index = slots.length;
  while (index > 0 && (slots[index - 1] as number) > at) index--;
  if (index === slots.length) slots.push(at);
  else slots.splice(index, 0, at);
}
