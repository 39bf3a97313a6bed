import type { Clock } from '../clock.js';
import type { ClientEmitter } from '../events.js';
import { SharedStateGuard } from './guard.js';
import type { SharedParts } from './pacing.js';
import type { RateBudget, Reservation, SharedState } from './shared-state.js';

/** The reservation before an attempt of `scope`; a client without pacing nor pause skips the store. */
export class Pacer {
  readonly #guard: SharedStateGuard;
  readonly #budget: RateBudget | undefined;
  readonly #clock: Clock;
  /** The latest pause this client set or saw; lets a client without a shared store skip the state. */
  #pausedUntil = 0;

  constructor(guard: SharedStateGuard, budget: RateBudget | undefined, clock: Clock) {
    this.#guard = guard;
    this.#budget = budget;
    this.#clock = clock;
  }

  /**
   * `undefined` when nothing can hold the call back (no budget, no shared store, no pause). A slot
   * farther than `maxWaitMs` is not taken: a call that gives up does not spend the budget.
   */
  reserve(scope: string, maxWaitMs: number): Promise<Reservation> | undefined {
    const now = this.#clock.now();
    const budget = this.#budget;
    if (budget === undefined && !this.#guard.shared && now >= this.#pausedUntil) return undefined;
    const asked = budget === undefined ? undefined : { ...budget, maxWaitMs };
    return this.#guard.run('reserve', (state) => state.reserve(scope, asked, now));
  }

  /** Pauses `scope` for `ms` (a 429's `Retry-After`), for every client sharing the state. */
  pause(scope: string, ms: number): Promise<void> {
    const now = this.#clock.now();
    this.#pausedUntil = Math.max(this.#pausedUntil, now + ms);
    return this.#guard.run('pause', (state) => state.pause(scope, ms, now));
  }
}

/** A client's guard over `shared` (or its own memory) and its pacer: what {@link Pacing} loads. */
export function sharedParts(
  shared: SharedState | undefined,
  budget: RateBudget | undefined,
  clock: Clock,
  events: ClientEmitter,
): SharedParts {
  const guard = new SharedStateGuard(shared, clock, events);
  return { guard, pacer: new Pacer(guard, budget, clock) };
}
