import type { Clock } from './clock.js';
import { APIUserAbortError, WaitTimeoutError } from './errors.js';

/** How a {@link pollUntil} paces its reads and when it stops. */
export interface Polling<T> {
  clock: Clock;
  signal?: AbortSignal | undefined;
  /** Milliseconds on `clock` from the start; `undefined`: no limit. */
  timeout?: number | undefined;
  /** The first wait between reads, doubled after each read up to `max` (ms). */
  interval: { initial: number; max: number };
  /** Registers `wakeUp` (read again now) and returns what removes it; called once, removed on settle. */
  wake?: ((wakeUp: () => void) => () => void) | undefined;
  /** The message of the time-out, from the last value read. */
  timedOut: (last: T) => string;
}

/**
 * Reads until `done` holds for what was read, waiting on the clock between reads with a growing
 * interval, and resolves with that value. A wake-up cuts the current wait short (one during a read
 * makes the next read start at once, so none is lost). Rejects with `WaitTimeoutError` once the
 * time-out passed (checked between reads), with `APIUserAbortError` when `signal` aborts, and with
 * the read's own error when a read fails.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  polling: Polling<T>,
): Promise<T> {
  const { clock, signal, timeout, interval } = polling;
  const deadline = timeout === undefined ? Number.POSITIVE_INFINITY : clock.now() + timeout;
  // Aborted by a wake-up or the caller's signal: ends the current wait. A fresh one after each wait.
  let waiting = new AbortController();
  const stop = () => waiting.abort();
  signal?.addEventListener('abort', stop);
  const unsubscribe = polling.wake?.(stop);
  try {
    for (let wait = interval.initial; ; wait = Math.min(wait * 2, interval.max)) {
      if (signal?.aborted)
        throw new APIUserAbortError('Wait aborted by the caller', { cause: signal.reason });
      const value = await read();
      if (done(value)) return value;
      const left = deadline - clock.now();
      if (left <= 0) throw new WaitTimeoutError(polling.timedOut(value), timeout ?? 0);
      if (!waiting.signal.aborted) await clock.sleep(Math.min(wait, left), waiting.signal).catch(() => {});
      waiting = new AbortController();
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    unsubscribe?.();
  }
}
