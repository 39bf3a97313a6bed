import { TelephonyError } from '../shared/telephony-error.js';

/** A timer that does not keep a process alive (Node's `unref`; other runtimes' timers have none). */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** One pending time-out of a {@link Deadlines}; `cancel()` once the work it bounds has settled. */
interface Deadline {
  readonly at: number;
  late: (() => void) | undefined;
}

/**
 * Time-outs that all last `ms`, on one timer. A delivery bounds its store calls, its handlers and its
 * claim's renewal: a `setTimeout` + `clearTimeout` pair each (and a `Promise.race`) was a fixed
 * cost on every delivery, most of the receiver's own time under a burst. Every time-out here has the
 * same length, so they end in the order they start: a queue, and one timer for its oldest entry. A
 * cancelled entry stays queued (an O(1) cancel) until the timer passes it.
 *
 * Beyond setTimeout's 24.8-day range (Infinity included) a timer would fire at once: nothing is
 * scheduled then.
 */
export class Deadlines {
  readonly #ms: number;
  #queue: Deadline[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Calls `late` in `ms` unless the returned cancel is called first. */
  start(late: () => void): () => void {
    if (!(this.#ms < 2 ** 31)) return () => {};
    const deadline: Deadline = { at: Date.now() + this.#ms, late };
    this.#queue.push(deadline);
    if (this.#timer === undefined) this.#arm(this.#ms);
    return () => {
      deadline.late = undefined;
    };
  }

  #arm(ms: number): void {
    this.#timer = unref(setTimeout(() => this.#fire(), ms));
  }

  #fire(): void {
    const now = Date.now();
    let next = this.#queue[this.#head];
    while (next !== undefined && (next.late === undefined || next.at <= now)) {
      const late = next.late;
      next.late = undefined;
      late?.();
      next = this.#queue[++this.#head];
    }
    // Drop the passed entries now and then, not on every fire: one copy per half a queue.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    // Left set until here, so a `late` that starts another time-out does not arm a second timer.
    this.#timer = undefined;
    if (next !== undefined) this.#arm(next.at - now);
  }
}

const noStoreAnswer = (): never => {
  throw new TelephonyError('no store answer within 2 s');
};

/**
 * `work` as it is when it is not a promise (a synchronous store: nothing to wait for); else `work`,
 * or what `late()` gives (or throws) if `work` has not settled within the deadlines' time.
 *
 * By default it bounds a store call: one that has not settled within 2 s rejects (`store_error`: the
 * delivery answers 500 and the service re-delivers later), whatever the driver does with it
 * meanwhile: node-redis queues commands while it reconnects, ioredis's offline queue holds them
 * ~17 s, and a frozen server answers nothing at all.
 */
export function bounded<T>(work: PromiseLike<T>, deadlines: Deadlines, late?: () => T): Promise<T>;
export function bounded<T>(work: T | PromiseLike<T>, deadlines: Deadlines, late?: () => T): T | Promise<T>;
export function bounded<T>(
  work: T | PromiseLike<T>,
  deadlines: Deadlines,
  late: () => T = noStoreAnswer,
): T | Promise<T> {
  if (!isThenable(work)) return work;
  return new Promise<T>((resolve, reject) => {
    const cancel = deadlines.start(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    });
    work.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}

/** Whether `value` is a promise (or any thenable), to be awaited. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
