import type { Clock } from '../clock.js';
import type { ClientEmitter } from '../events.js';
import { Deadlines } from './deadlines.js';
import { MemoryState, type SharedState } from './shared-state.js';

/** A store call taking longer than this counts as failed: a call never waits on a hung store. */
const STORE_TIMEOUT_MS = 1_000;
const TIMED_OUT = `shared state did not answer within ${STORE_TIMEOUT_MS} ms`;
/** After a store failure the client keeps to its local state this long before trying the store again. */
const STORE_RETRY_MS = 5_000;

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
