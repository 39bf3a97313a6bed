import { TelephonyError } from '../shared/telephony-error.js';

/** A timer that does not keep a process alive (Node's `unref`; other runtimes' timers have none). */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/**
 * `work`, or what `late()` gives (or throws) if `work` has not settled within `ms`; the timer is
 * cleared once either has. Beyond setTimeout's 24.8-day range (Infinity included) a timer would
 * fire at once: no timer then.
 *
 * By default it bounds a store call: one that has not settled within 2 s rejects (`store_error`: the
 * delivery answers 500 and the service re-delivers later), whatever the driver does with it
 * meanwhile: node-redis queues commands while it reconnects, ioredis's offline queue holds them
 * ~17 s, and a frozen server answers nothing at all.
 */
export function bounded<T>(
  work: T | Promise<T>,
  ms = 2e3,
  late = (): T => {
    throw new TelephonyError('no store answer within 2 s');
  },
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work,
    new Promise((resolve) => {
      if (ms < 2 ** 31) timer = unref(setTimeout(resolve, ms));
    }).then(late),
  ]).finally(() => clearTimeout(timer));
}
