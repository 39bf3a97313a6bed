import type { Clock } from '../clock.js';
import type { ClientEmitter } from '../events.js';
import { Deadlines } from './deadlines.js';
import { MemoryState, type RateBudget, type Reservation, type SharedState } from './shared-state.js';

/** The `rateLimit` option: a plan by name, a rate, or `false` (no pacing, the default). */
export type RateLimit =
  | 'starter'
  | 'pro'
  | 'enterprise'
  | {
      /** Requests allowed in any 60-second window (a whole number ≥ 1). */
      requestsPerMinute: number;
    }
  | false;

/** Plans of SPEC.md, Limits: requests per minute per account. */
export const PLANS: Record<Exclude<RateLimit, false | object>, number> = {
  starter: 100,
  pro: 500,
  enterprise: 2000,
};

const WINDOW_MS = 60_000;
// The service counts a request when it arrives, the client when it sends: a 1 s longer window keeps
// two requests a whole client window apart also a whole service window apart when the network delays
// the first one (by up to a second).
export const SAFETY_MS = 1_000;
/** A store call taking longer than this counts as failed: a call never waits on a hung store. */
const STORE_TIMEOUT_MS = 1_000;
const TIMED_OUT = `shared state did not answer within ${STORE_TIMEOUT_MS} ms`;
/** After a store failure the client keeps to its local state this long before trying the store again. */
const STORE_RETRY_MS = 5_000;

/** The budget of `rateLimit`, or `undefined` without pacing. */
export function budgetOf(rateLimit: RateLimit | undefined): RateBudget | undefined {
  if (rateLimit === undefined || rateLimit === false) return undefined;
  const limit = typeof rateLimit === 'string' ? PLANS[rateLimit] : rateLimit.requestsPerMinute;
  return { limit, windowMs: WINDOW_MS + SAFETY_MS };
}

/**
 * Asks the shared state for budget and pauses, and never lets it fail a call: a store call that
 * rejects or hangs past {@link STORE_TIMEOUT_MS} is reported as `'shared_state_error'` and answered by
 * the client's own {@link MemoryState}, and the store is left alone for {@link STORE_RETRY_MS} before
 * it is tried again (so an outage costs one timeout, not one per call).
 */
export class SharedStateGuard {
  readonly #shared: SharedState | undefined;
  readonly #local = new MemoryState();
  readonly #clock: Clock;
  readonly #events: ClientEmitter;
  /** One timer for every pending store call instead of one each. */
  readonly #deadlines = new Deadlines(STORE_TIMEOUT_MS);
  #downUntil = 0;

  constructor(shared: SharedState | undefined, clock: Clock, events: ClientEmitter) {
    this.#shared = shared;
    this.#clock = clock;
    this.#events = events;
  }

  /** Runs `operation` on the shared state, or on the local one when there is none or it fails. */
  run<T>(name: string, operation: (state: SharedState) => Promise<T>): Promise<T> {
    const shared = this.#shared;
    if (shared === undefined || this.#clock.now() < this.#downUntil) return operation(this.#local);
    let call: Promise<T>;
    try {
      // A store whose method answers a plain value (not the interface, but plain JS allows it) still works.
      call = Promise.resolve(operation(shared));
    } catch (error) {
      return this.#fallBack(name, error, operation);
    }
    const deadlines = this.#deadlines;
    return new Promise<T>((resolve) => {
      const fallBack = (error: unknown) => resolve(this.#fallBack(name, error, operation));
      const watched = deadlines.watch(() => fallBack(new Error(TIMED_OUT)));
      // An answer after the deadline is dropped: the call already went on with the local state.
      call.then(
        (value) => {
          if (deadlines.finish(watched)) resolve(value);
        },
        (error: unknown) => {
          if (deadlines.finish(watched)) fallBack(error);
        },
      );
    });
  }

  /** Reports the failure, leaves the store alone for a while, and answers from the local state. */
  async #fallBack<T>(
    name: string,
    error: unknown,
    operation: (state: SharedState) => Promise<T>,
  ): Promise<T> {
    this.#downUntil = this.#clock.now() + STORE_RETRY_MS;
    this.#events.emit('shared_state_error', { operation: name, error: describe(error) });
    return operation(this.#local);
  }

  /** Whether there is a shared store: then every call asks it (another process may have paused the account). */
  get shared(): boolean {
    return this.#shared !== undefined;
  }
}

/** A store's error as the event carries it: its message only (a driver's error may hold its URL). */
function describe(error: unknown): Error {
  return new Error(error instanceof Error ? error.message : String(error));
}

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
