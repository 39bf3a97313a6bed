import type { Clock } from '../../src/core/clock.js';

/** A `Clock` that records every wait asked for, resolves at once and moves `now` forward by it. */
export interface FakeClock extends Clock {
  /** Milliseconds requested, in order. */
  readonly waits: number[];
  /** Moves time forward without a wait (token expiry tests). */
  advance(ms: number): void;
}

export function fakeClock(start = Date.UTC(2025, 0, 15, 9, 0, 0)): FakeClock {
  let now = start;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      now += ms;
      // Yield once so an abort fired from a 'retry' listener or another task is observed.
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason;
    },
  };
}
