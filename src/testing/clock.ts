/**
 * The sandbox's notion of time. Lifecycle transitions and webhook retries are timers on this
 * clock, so tests move time with `advance(ms)` instead of sleeping.
 */
export interface SandboxClock {
  /** Milliseconds since the Unix epoch, as the sandbox sees it. */
  now(): number;
  /** Moves time forward by `ms`, running every timer that falls due, in order. */
  advance(ms: number): Promise<void>;
}

interface Timer {
  at: number;
  seq: number;
  run: () => void | Promise<void>;
}

/** Options of the sandbox clock. */
export interface ClockOptions {
  /** Start time, ms since the epoch. Default 2025-01-15T09:00:00Z for a manual clock, now for real time. */
  start?: number;
  /** `'manual'` (default): time moves only through `advance()`. `'realtime'`: it also follows the wall clock. */
  mode?: 'manual' | 'realtime';
}

const DEFAULT_START = Date.UTC(2025, 0, 15, 9, 0, 0);

/** A timer queue driven by `advance()` and, in real-time mode, by a wall-clock ticker. */
export class Scheduler implements SandboxClock {
  #offset: number;
  #timers: Timer[] = [];
  #seq = 0;
  #realtime: boolean;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #settle: () => Promise<void> = async () => {};

  constructor(options: ClockOptions = {}) {
    this.#realtime = options.mode === 'realtime';
    const start = options.start ?? (this.#realtime ? Date.now() : DEFAULT_START);
    this.#offset = this.#realtime ? start - Date.now() : start;
  }

  now(): number {
    return this.#realtime ? Date.now() + this.#offset : this.#offset;
  }

  /**
   * Work `advance()` awaits before each due timer is picked: a webhook delivery in flight
   * schedules its re-delivery only when its answer arrives, and `advance()` must see that timer.
   * The real-time ticker never awaits it: deliveries run beside the wall clock, so a receiver
   * that does not answer cannot hold back a call's transitions for its delivery time-out.
   */
  settleWith(settle: () => Promise<void>): void {
    this.#settle = settle;
  }

  /** Runs `run` once `delayMs` have passed on this clock. */
  schedule(delayMs: number, run: () => void | Promise<void>): void {
    this.#timers.push({ at: this.now() + delayMs, seq: this.#seq++, run });
    if (this.#realtime && !this.#ticker) {
      this.#ticker = setInterval(() => void this.#runDue(this.now(), false), 50);
      // The ticker must not keep a CLI or test process alive on its own.
      (this.#ticker as { unref?: () => void }).unref?.();
    }
  }

  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError('advance(ms) needs a non-negative number of milliseconds');
    const target = this.now() + ms;
    await this.#runDue(target, true);
    this.#moveTo(target);
  }

  /** Stops the real-time ticker. */
  stop(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  async #runDue(target: number, settle: boolean): Promise<void> {
    for (;;) {
      if (settle) await this.#settle();
      const next = this.#nextDue(target);
      if (!next) return;
      this.#timers.splice(this.#timers.indexOf(next), 1);
      if (next.at > this.now()) this.#moveTo(next.at);
      await next.run();
    }
  }

  #nextDue(target: number): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.#timers) {
      if (timer.at > target) continue;
      if (!best || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) best = timer;
    }
    return best;
  }

  #moveTo(time: number): void {
    if (time <= this.now()) return;
    this.#offset += time - this.now();
  }
}
