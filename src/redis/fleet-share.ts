import type { FailSafeState } from '../core/pacing/fail-safe-state.js';
import { type FleetBudget, insert, type RateBudget, type Reservation } from '../core/pacing/shared-state.js';

/**
 * Clock difference the loss check allows between this client and the store: a send of ours this
 * close to the window's edge may already have left the store's window.
 */
const EDGE_MS = 2_000;
/**
 * How long the share still holds once our sends are back in the store: the others write theirs back
 * within the fail-safe state's 5 s back-off of the store's return, and then the store's window is whole again.
 */
const REFILL_MS = 6_000;

/** What the client knows of one scope's shared budget (`<account>:v2`, `<account>:v1`). */
interface ScopeState {
  /** The fleet's size as the store last counted it: 1 until it has answered once. */
  members: number;
  /** Until then each reservation also keeps to this client's share (the store may miss others' sends). */
  degradedUntil: number;
  /** Our sends after this may be missing from the store: sent with the next reservation. */
  unstoredSince: number;
  /** A reservation carrying our sends is under way: until it answers, a short window is expected. */
  seeding?: boolean;
  /** The store's name for its window data, as last seen. */
  epoch?: string;
  /** Slots the store took for calls that then kept to the share: given back with the next seed. */
  unused: string[];
}

/**
 * The rate budget of a client with a shared store, which a store that is slow, down or restarted
 * cannot push past the plan. The client keeps a log of its own sends (its local state). While the
 * store answers, its window decides. While it fails, the client paces on the log alone, to its
 * **share** of the plan: the plan divided by the processes the store last counted (the whole plan if it
 * never answered). After a failure, or after the store answered with a new window (a restart lost it),
 * each reservation also keeps to that share, and the client writes its sends the store may lack into
 * the window with its next reservation; the share holds until {@link REFILL_MS} after they are back.
 * `redisState` hands it to the client (`SharedState.fleetBudget`): only a remote store can fail or
 * lose its window, so a client without one does not carry this code.
 */
export class FleetShare implements FleetBudget {
  readonly #failSafe: FailSafeState;
  readonly #scopes = new Map<string, ScopeState>();

  constructor(failSafe: FailSafeState) {
    this.#failSafe = failSafe;
  }

  reserve(scope: string, asked: RateBudget, now: number, boundMs: number): Promise<Reservation> {
    let state = this.#scopes.get(scope);
    if (state === undefined) {
      state = { members: 1, degradedUntil: 0, unstoredSince: Infinity, unused: [] };
      this.#scopes.set(scope, state);
    }
    const local = this.#failSafe.local;
    const { limit, windowMs, maxWaitMs = Infinity } = asked;
    const share = { limit: Math.max(1, Math.floor(limit / state.members)), windowMs };
    if (now < state.degradedUntil)
      asked.minWaitMs = local.reserveNow(scope, { ...share, maxWaitMs: -1 }, now).waitMs;
    const seedSince = state.unstoredSince;
    if (seedSince !== Infinity && !state.seeding) {
      const log = local.log(scope, windowMs, now);
      asked.seed = log.slice(firstAfter(log, seedSince)).map((at) => now - at);
      asked.release = state.unused.splice(0);
      state.unstoredSince = Infinity;
      state.seeding = true;
    }
    let fellBack = false;
    const seeding = asked.seed !== undefined;
    const fallback = async (): Promise<Reservation> => {
      fellBack = true;
      // Its release is dropped with it: those slots stay, erring on the full side.
      if (seeding) state.seeding = false;
      state.unstoredSince = Math.min(state.unstoredSince, seeding ? seedSince : now);
      state.degradedUntil = now + windowMs;
      return local.reserveNow(scope, { ...share, maxWaitMs }, now);
    };
    return this.#failSafe
      .run('reserve', (store) => store.reserve(scope, asked, now), boundMs, fallback)
      .then((reservation) =>
        fellBack ? reservation : this.#taken(scope, state, share, reservation, maxWaitMs, now, seeding),
      );
  }

  /** The store's answer: note the fleet's size, check it still holds our sends, log the slot. */
  #taken(
    scope: string,
    state: ScopeState,
    share: { limit: number; windowMs: number },
    reservation: Reservation,
    maxWaitMs: number,
    now: number,
    seeded: boolean,
  ): Reservation {
    const local = this.#failSafe.local;
    const log = local.log(scope, share.windowMs, now);
    const { held, members, epoch } = reservation;
    if (members !== undefined && members > 0) state.members = members;
    if (seeded) {
      state.seeding = false;
      state.degradedUntil = Math.min(state.degradedUntil, now + REFILL_MS);
    }
    const renamed = epoch !== undefined && state.epoch !== undefined && epoch !== state.epoch;
    if (epoch !== undefined) state.epoch = epoch;
    if (
      renamed ||
      (held !== undefined &&
        !state.seeding &&
        held < log.length - firstAfter(log, now - share.windowMs + EDGE_MS))
    ) {
      // The store lost sends we made (a restart): for a window our share decides too, and they go back.
      state.unstoredSince = -Infinity;
      state.degradedUntil = now + share.windowMs;
    }
    let { waitMs, reason } = reservation;
    if (now < state.degradedUntil) {
      // Also for calls that asked before the loss showed: the store's window may miss others' sends.
      const own = local.reserveNow(scope, { ...share, maxWaitMs: -1 }, now).waitMs;
      if (own > waitMs) {
        // The store's slot goes unused (the call is refused, or sends later): it is given back with the
        // next seed, which writes back what is sent instead — unless a seed is under way, which would
        // miss that send: then the slot stands for it.
        if (reservation.slot && (own > maxWaitMs || (state.unstoredSince < Infinity && !state.seeding)))
          state.unused.push(reservation.slot);
        waitMs = own;
        reason = 'pacing';
      }
    }
    if (waitMs <= maxWaitMs) insert(log, now + waitMs);
    return waitMs === reservation.waitMs ? reservation : { waitMs, reason };
  }
}

/** Index of the first of ascending `slots` after `since` (binary search: a window may hold thousands). */
function firstAfter(slots: number[], since: number): number {
  let low = 0;
  let high = slots.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((slots[middle] as number) > since) high = middle;
    else low = middle + 1;
  }
  return low;
}
