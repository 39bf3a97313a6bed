import { type Clock, systemClock } from '../core/clock.js';
import type { SandboxClock } from './clock.js';

/**
 * The `clock` for a client talking to this sandbox. The client waits on its own clock (backoff,
 * Retry-After, 429 pauses, `rateLimit` pacing): on the real clock, a test that exceeds its plan
 * against a manual sandbox clock would sleep real minutes while sandbox time stands still. Paired,
 * a wait moves sandbox time by exactly that much, at once. A real-time sandbox already moves with
 * the wall clock, so there the client sleeps for real, reading time from the sandbox.
 */
export function pairedClientClock(clock: SandboxClock, mode: 'manual' | 'realtime' = 'manual'): Clock {
  const now = () => clock.now();
  if (mode === 'realtime') return { now, sleep: systemClock.sleep };
  return {
    now,
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const moved = clock.advance(ms);
      if (!signal) return moved;
      // The time still moves (other callers may be waiting on it); only this wait gives up.
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        moved.then(
          () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
          (error: unknown) => {
            signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        );
      });
    },
  };
}
