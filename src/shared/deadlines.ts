/** A call being watched: `expire` runs once its deadline passes unless it is finished first. */
export interface Watched {
  readonly due: number;
  readonly expire: () => void;
}

/**
 * Deadlines for pending calls that are all given the same time, kept by one timer: it fires at the
 * oldest pending deadline, expires what is due and re-arms for the next. A call then costs a set
 * entry instead of a timer and a race of its own — on a store round trip of a few tens of µs, those
 * were a measurable share. The timer is unref'd: a pending call never keeps a process alive. A
 * limit beyond setTimeout's 24.8-day range (Infinity included) arms no timer: one would fire at once.
 * The client's store calls (core/pacing) and the webhook receiver's time-outs both run on it.
 */
export class Deadlines {
  readonly #limitMs: number;
  /** Insertion order is deadline order: every call gets the same limit on a monotonic clock. */
  readonly #pending = new Set<Watched>();
  #armed = false;

  constructor(limitMs: number) {
    this.#limitMs = limitMs;
  }

  /** Watches a call that starts now: `expire` runs if it is not finished within the limit. */
  watch(expire: () => void): Watched {
    const watched = { due: performance.now() + this.#limitMs, expire };
    this.#pending.add(watched);
    if (!this.#armed && this.#limitMs < 2 ** 31) this.#arm(this.#limitMs);
    return watched;
  }

  /**
   * Stops watching a call that answered; `false` when it had already expired (its answer came too
   * late). The timer is left to fire at its time: clearing and re-arming it on every call would cost
   * what sharing it saves, and on firing it finds nothing due and stops.
   */
  finish(watched: Watched): boolean {
    return this.#pending.delete(watched);
  }

  #arm(ms: number): void {
    this.#armed = true;
    const timer = setTimeout(this.#fire, Math.ceil(ms)) as { unref?: () => void };
    timer.unref?.();
  }

  // `#armed` stays set while it runs, so an `expire` that watches again (a renewal) does not arm a
  // second timer, which could fire after the next deadline due.
  readonly #fire = (): void => {
    const now = performance.now();
    for (const watched of this.#pending) {
      if (watched.due > now) {
        this.#arm(watched.due - now);
        return;
      }
      this.#pending.delete(watched);
      watched.expire();
    }
    this.#armed = false;
  };
}
