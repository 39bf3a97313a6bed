import type { Deadlines } from '../shared/deadlines.js';
import { TelephonyError } from '../shared/telephony-error.js';

const noStoreAnswer = (): never => {
  throw new TelephonyError('no store answer within 2 s');
};

/**
 * `work` as it is when it is not a promise (a synchronous store: nothing to wait for); else `work`,
 * or what `late()` gives (or throws) if `work` has not settled within the deadlines' time. Every
 * time-out of one length shares one timer (`Deadlines`): a `setTimeout` + `clearTimeout` pair and a
 * `Promise.race` per store call and per delivery were a fixed cost of every delivery.
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
    const watched = deadlines.watch(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    });
    work.then(
      (value) => {
        deadlines.finish(watched);
        resolve(value);
      },
      (error: unknown) => {
        deadlines.finish(watched);
        reject(error);
      },
    );
  });
}

/** Whether `value` is a promise (or any thenable), to be awaited. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * (Not named `then`: a module exporting `then` is a thenable to `await import()`.)
 * `next(value)` now when `value` is not a promise, else once it resolves: the receiver's steps stay
 * synchronous end to end for a synchronous store and handlers (each avoided promise hop is a
 * measurable share of a delivery), and chain as before for an asynchronous one.
 */
export function andThen<T, R>(value: T | PromiseLike<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}
