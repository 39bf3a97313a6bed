import type { FailSafeState } from '../core/pacing/fail-safe-state.js';
import { type FleetBudget, insert, type RateBudget, type Reservation } from '../core/pacing/shared-state.js';

/**
 * Clock difference the loss check allows between this client and the store: a send of ours this
 * close to the window's edge may already have left the store's window.
 */
const EDGE_MS = 2_000;
/**
 * How long the share still holds once our sends are back in the store, when the store cannot say that
 * every process has written its own back (an outage rather than a restart, or a process gone idle): the
 * others write theirs back with their next reservation, within the fail-safe state's 5 s back-off.
 */
const REFILL_MS = 6_000;
/** How soon a call the share holds back while the window is refilled asks the store again. */
const POLL_MS = 100;

/** What the client knows of one scope's shared budget (`<account>:v2`, `<account>:v1`). */
interface ScopeState {
  /** The fleet's size as the store last counted it: 1 until it has answered once. */
  members: number;
  /** Until then each reservation also keeps to this client's share (the store may miss others' sends). */
  degradedUntil: number;
  /** Processes expected to write their sends back after a lost window (the fleet before it); unknown after an outage. */
  expected?: number | undefined;
  /** Our sends after this may be missing from the store: sent with the next reservation. */
  unstoredSince: number;
  /** A reservation carrying our sends is under way: until it answers, a short window is expected. */
  seeding?: boolean;
  /** The store's name for its window data, as last seen. */
  epoch?: string | undefined;
  /** Slots the store took for calls that then asked again: given back with the next reservation. */
  unused: string[];
}

/** One ask of the store: the final reservation, or when to ask again (and the wait if the call cannot). */
type Asked = Reservation | { againAt: number; waitMs: number };

/**
 * The rate budget of a client with a shared store, which a store that is slow, down or restarted
 * cannot push past the plan, and a restart does not push calls a window late. The client keeps a log
 * of its own sends (its local state: what it took in the current window). While the store answers,
 * its window decides.
 *
 * - **Lost window** (a restart without persistence, a flush): the store sees the window's name
 *   (`epoch`) the client knew is gone, takes no slot, and the client asks again with every send of
 *   its log, so the new window holds what the lost one held, each send once. Until every process the
 *   store counted before has written its sends back (the store counts them), a call the client's
 *   **share** (the plan divided by those processes) would send later than the window is not booked on
 *   the share: it asks again every {@link POLL_MS}, and goes out when the window is whole.
 * - **Failure** (down, refused, no answer within the call's timeout): the client paces on its log
 *   alone, to its share. A call the share holds back longer than the store's 5 s back-off waits for
 *   the store instead and asks it again; one the share lets go sooner is booked on the share.
 *
 * Each call's holds count against its `maxWaitMs`: it is refused once it cannot go out within it.
 * `redisState` hands it to the client (`SharedState.fleetBudget`): only a remote store can fail or
 * lose its window, so a client without one does not carry this code.
 */
export class FleetShare implements FleetBudget {
  readonly #failSafe: FailSafeState;
  readonly #scopes = new Map<string, ScopeState>();

  constructor(failSafe: FailSafeState) {
    this.#failSafe = failSafe;
  }

  async reserve(
    scope: string,
    asked: RateBudget,
    now: number,
    boundMs: number,
    signal?: AbortSignal,
  ): Promise<Reservation> {
    let state = this.#scopes.get(scope);
    if (state === undefined) {
      state = { members: 1, degradedUntil: 0, unstoredSince: Infinity, unused: [] };
      this.#scopes.set(scope, state);
    }
    const maxWaitMs = asked.maxWaitMs ?? Infinity;
    let at = now;
    for (;;) {
      const answer = await this.#ask(scope, state, asked, at, maxWaitMs - (at - now), boundMs);
      if (!('againAt' in answer)) {
        // Refused after a hold: its wait counts from when the call asked, so the caller refuses it too.
        return at === now || answer.waitMs <= maxWaitMs - (at - now)
          ? answer
          : { waitMs: answer.waitMs + (at - now), reason: answer.reason ?? 'pacing' };
      }
      if (answer.againAt - now > maxWaitMs)
        return { waitMs: Math.max(answer.waitMs + (at - now), maxWaitMs + 1), reason: 'pacing' };
      // An aborted call is over: it asks no more (its holds would last up to its `maxWaitMs`).
      signal?.throwIfAborted();
      if (answer.againAt > at) await this.#failSafe.clock.sleep(answer.againAt - at, signal);
      at = this.#failSafe.clock.now();
    }
  }

  /** Asks the store once (or, while it fails, the log); `maxWaitMs` is what is left of the call's. */
  async #ask(
    scope: string,
    state: ScopeState,
    asked: RateBudget,
    now: number,
    maxWaitMs: number,
    boundMs: number,
  ): Promise<Asked> {
    const local = this.#failSafe.local;
    const { limit, windowMs } = asked;
    const share = { limit: Math.max(1, Math.floor(limit / state.members)), windowMs };
    const budget: RateBudget = { limit, windowMs, epoch: state.epoch };
    if (Number.isFinite(maxWaitMs)) budget.maxWaitMs = maxWaitMs;
    if (now < state.degradedUntil) {
      budget.minWaitMs = local.reserveNow(scope, { ...share, maxWaitMs: -1 }, now).waitMs;
      budget.refill = state.expected;
    }
    if (state.unused.length > 0) budget.release = state.unused.splice(0);
    const seedSince = state.unstoredSince;
    const seeding = seedSince !== Infinity && !state.seeding;
    if (seeding) {
      const log = local.log(scope, windowMs, now);
      budget.seed = log.slice(firstAfter(log, seedSince)).map((sent) => now - sent);
      state.unstoredSince = Infinity;
      state.seeding = true;
    }
    let fellBack = false;
    const reservation = await this.#failSafe.run(
      'reserve',
      (store) => store.reserve(scope, budget, now),
      boundMs,
      async (): Promise<Reservation> => {
        fellBack = true;
        return { waitMs: 0, reason: undefined };
      },
    );
    if (seeding) state.seeding = false;
    if (fellBack) {
      if (budget.release !== undefined) state.unused.push(...budget.release);
      state.unstoredSince = Math.min(state.unstoredSince, seeding ? seedSince : now);
      state.degradedUntil = Math.max(state.degradedUntil, now + windowMs);
      return this.#alone(scope, share, now, maxWaitMs);
    }
    return this.#answered(scope, state, share, budget, reservation, now, seeding);
  }

  /**
   * The store failed: our share of the plan, on our log. A call it holds back longer than the store's
   * back-off (when the store is tried again) waits for the store, if its own wait allows.
   */
  #alone(scope: string, share: { limit: number; windowMs: number }, now: number, maxWaitMs: number): Asked {
    const local = this.#failSafe.local;
    const own = local.reserveNow(scope, { ...share, maxWaitMs: -1 }, now).waitMs;
    const retryAt = this.#failSafe.retryAt;
    if (own > retryAt - now && retryAt - now <= maxWaitMs) return { againAt: retryAt, waitMs: own };
    return local.reserveNow(scope, { ...share, maxWaitMs }, now);
  }

  /** The store's answer: a lost window, a hold while it is refilled, or a slot; the fleet's size noted, the slot logged. */
  #answered(
    scope: string,
    state: ScopeState,
    share: { limit: number; windowMs: number },
    budget: RateBudget,
    reservation: Reservation,
    now: number,
    seeded: boolean,
  ): Asked {
    const { held, members, epoch, refilled, retry } = reservation;
    const { windowMs } = share;
    if (retry === 'lost') {
      // Once per new window (each call in flight hears it), or again when our own write-back was refused.
      const fresh = epoch !== state.epoch;
      if (fresh || seeded) {
        state.epoch = epoch;
        state.unstoredSince = -Infinity;
        if (fresh || state.expected === undefined) state.expected = state.members;
        state.degradedUntil = Math.max(state.degradedUntil, now + windowMs);
      }
      return { againAt: now, waitMs: reservation.waitMs };
    }
    if (epoch !== undefined) state.epoch = epoch;
    if (seeded) state.degradedUntil = Math.min(state.degradedUntil, now + REFILL_MS);
    if (state.expected !== undefined && refilled !== undefined && refilled >= state.expected) {
      // Every process the store counted before has written its sends back: the window is whole.
      state.degradedUntil = Math.min(state.degradedUntil, now);
      state.expected = undefined;
    }
    const local = this.#failSafe.local;
    const log = local.log(scope, windowMs, now);
    if (
      held !== undefined &&
      !state.seeding &&
      held < log.length - firstAfter(log, now - windowMs + EDGE_MS)
    ) {
      // The store lost sends we made and kept its window's name (a partial loss): ours go back, and
      // for a while our share decides too.
      state.unstoredSince = -Infinity;
      state.degradedUntil = Math.max(state.degradedUntil, now + windowMs);
    }
    if (now >= state.degradedUntil && members !== undefined && members > 0) state.members = members;
    if (retry === 'refilling') return { againAt: now + POLL_MS, waitMs: reservation.waitMs };
    const { waitMs } = reservation;
    if (waitMs > (budget.maxWaitMs ?? Infinity)) return reservation;
    if (now < state.degradedUntil && budget.minWaitMs === undefined) {
      // Asked before the store's window was known to lack sends: if our share says later, its slot is
      // given back and the call asks again under the share.
      const own = local.reserveNow(scope, { ...share, maxWaitMs: -1 }, now).waitMs;
      if (own > waitMs) {
        if (reservation.slot !== undefined) state.unused.push(reservation.slot);
        return { againAt: now, waitMs: own };
      }
    }
    insert(log, now + waitMs);
    return reservation;
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
