import type { Clock } from '../clock.js';

/**
 * A call's `totalTimeout`: every attempt, every wait and the wait for a token end by it. Time is the
 * client's clock (a test's fake clock moves only by the waits asked of it); a wait that would pass the
 * deadline is refused before it starts, never slept through.
 */
export class Deadline {
  readonly #clock: Clock;
  readonly #end: number;
  /** The `totalTimeout` it was made from, in ms. */
  readonly totalMs: number;

  constructor(clock: Clock, totalMs: number) {
    this.#clock = clock;
    this.totalMs = totalMs;
    this.#end = clock.now() + totalMs;
  }

  /** Milliseconds left (0 once passed). */
  left(): number {
    return Math.max(0, this.#end - this.#clock.now());
  }

  /** Whether a wait of `ms` ends before the deadline (a wait of 0 fits while time is left). */
  fits(ms: number): boolean {
    const left = this.left();
    return left > 0 && ms < left;
  }

  /** An attempt's time-out: its own, cut to what is left. */
  attemptTimeout(timeout: number): number {
    return Math.max(1, Math.min(timeout, this.left()));
  }

  /**
   * `promise`, or a rejection with {@link DeadlinePassed} once the deadline passes first (a real timer,
   * as an attempt's time-out is): for what the call waits on but does not own, such as a token
   * request other calls share, which goes on for them. What it waited on may itself wait on the
   * client's clock (the token request's Retry-After): a deadline that clock passed meanwhile has
   * passed too, whatever the promise settled to.
   */
  within<T>(promise: Promise<T>): Promise<T> {
    const left = this.left();
    if (left <= 0) return Promise.reject(new DeadlinePassed(this.totalMs));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const passed = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlinePassed(this.totalMs)), left);
    });
    const settled = <V>(value: V): V => {
      if (this.left() === 0) throw new DeadlinePassed(this.totalMs);
      return value;
    };
    return Promise.race([promise, passed])
      .finally(() => clearTimeout(timer))
      .then(settled, (error: unknown) => {
        throw settled(error);
      });
  }
}

/** The call's `totalTimeout` passed, or a wait would have passed it: the loop maps it to `APITimeoutError`. */
export class DeadlinePassed extends Error {
  override readonly name = 'DeadlinePassed';
  readonly totalMs: number;

  constructor(totalMs: number) {
    super(`totalTimeout of ${totalMs} ms passed`);
    this.totalMs = totalMs;
  }
}
