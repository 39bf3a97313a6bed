import { Deadlines } from '../../shared/deadlines.js';
import type { Clock } from '../clock.js';
import type { ClientEmitter } from '../events.js';
import { type FleetBudget, MemoryState, type SharedState } from './shared-state.js';

/** After a store failure the client keeps to its local state this long before trying the store again. */
const STORE_RETRY_MS = 5_000;

/**
 * Asks the shared state for budget and pauses, and never lets it fail a call: a store call that
 * rejects, or does not answer within the call's own deadline (its `timeout`: a slow store is not a
 * dead one, and what it answers late is still the fleet's truth), is reported as
 * `'shared_state_error'` and answered by the client's own {@link MemoryState} (or the caller's
 * fallback), and the store is left alone for {@link STORE_RETRY_MS} before it is tried again (so an
 * outage costs one timeout, not one per call). The event is once per outage: the calls in flight when
 * the store went away all fail with it, and one report says so; the next failure after an answer is a
 * new outage.
 */
export class FailSafeState {
  readonly #shared: SharedState | undefined;
  /** The client's own state: its pauses and, with a shared store, its log of what it sent. */
  readonly local = new MemoryState();
  /** The client's clock: waits that hold a call back while the store is away run on it. */
  readonly clock: Clock;
  readonly #events: ClientEmitter;
  /** One timer per deadline length (a client's calls mostly share one `timeout`) for every pending store call. */
  readonly #deadlines = new Map<number, Deadlines>();
  /** The client's `timeout`: the bound of store calls that belong to no call (the token's). */
  readonly #boundMs: number;
  #downUntil = 0;
  /** A failure was reported and the store has not answered since: further failures are the same outage. */
  #out = false;

  constructor(shared: SharedState | undefined, clock: Clock, events: ClientEmitter, boundMs: number) {
    this.#shared = shared;
    this.clock = clock;
    this.#events = events;
    this.#boundMs = boundMs;
  }

  /**
   * Runs `operation` on the shared state, or — when there is none, it fails or it does not answer
   * within `boundMs` — `fallback` (default: `operation` on the local state).
   */
  run<T>(
    name: string,
    operation: (state: SharedState) => Promise<T>,
    boundMs = this.#boundMs,
    fallback: () => Promise<T> = () => operation(this.local),
  ): Promise<T> {
    const shared = this.#shared;
    if (shared === undefined || this.clock.now() < this.#downUntil) return fallback();
    let call: Promise<T>;
    try {
      // A store whose method answers a plain value (not the interface, but plain JS allows it) still works.
      call = Promise.resolve(operation(shared));
    } catch (error) {
      return this.#fallBack(name, error, fallback);
    }
    let deadlines = this.#deadlines.get(boundMs);
    if (deadlines === undefined) {
      deadlines = new Deadlines(boundMs);
      this.#deadlines.set(boundMs, deadlines);
    }
    return new Promise<T>((resolve) => {
      const fallBack = (error: unknown) => resolve(this.#fallBack(name, error, fallback));
      const watched = deadlines.watch(() =>
        fallBack(new Error(`shared state did not answer within ${boundMs} ms`)),
      );
      // An answer after the deadline is dropped: the call already went on with the local state.
      call.then(
        (value) => {
          if (!deadlines.finish(watched)) return;
          this.#out = false;
          resolve(value);
        },
        (error: unknown) => {
          if (deadlines.finish(watched)) fallBack(error);
        },
      );
    });
  }

  /** Reports the outage (once), leaves the store alone for a while, and answers from the local state. */
  #fallBack<T>(name: string, error: unknown, fallback: () => Promise<T>): Promise<T> {
    this.#downUntil = this.clock.now() + STORE_RETRY_MS;
    if (!this.#out) {
      this.#out = true;
      this.#events.emit('shared_state_error', { operation: name, error: describe(name, error) });
    }
    return fallback();
  }

  /** When the store is tried again after a failure (the client's clock; in the past while it answers). */
  get retryAt(): number {
    return this.#downUntil;
  }

  /** The store's own way of reserving a pacing client's budget through this fail-safe state, if it has one. */
  fleetBudget(): FleetBudget | undefined {
    return this.#shared?.fleetBudget?.(this);
  }

  /** Whether there is a shared store: then every call asks it (another process may have paused the account). */
  get shared(): boolean {
    return this.#shared !== undefined;
  }
}

/**
 * A store's error as the event carries it: its message only (a driver's error may hold its URL in
 * other fields). A driver may reject with no message at all (an `AggregateError` of a refused
 * connection, a bare `Error`): the event then says what failed and the error's name.
 */
function describe(operation: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (message.trim() !== '') return new Error(message);
  // An AggregateError (a connection refused on every address) says it in the errors it holds.
  const inner =
    error instanceof AggregateError ? error.errors.map((e: unknown) => (e as Error)?.message) : [];
  const said = inner.filter((m): m is string => typeof m === 'string' && m !== '');
  if (said.length > 0) return new Error(said.join('; '));
  const name = error instanceof Error ? error.name : typeof error;
  return new Error(
    `shared state ${operation} failed: the store's client rejected with ${name} and no message`,
  );
}
