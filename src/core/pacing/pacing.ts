import type { ApiVersion } from '../errors.js';
import type { Pacer } from './pacer.js';
import type { Reservation } from './shared-state.js';

const NO_WAIT: Reservation = { waitMs: 0, reason: undefined };

/** What the {@link Pacer} is made with: the client's options, budget, pause cap, timeout, clock and events. */
export type PacerSettings = ConstructorParameters<typeof Pacer>;

/**
 * A client's pacing and shared state, with their code (pacer.ts, fail-safe-state.ts, the in-memory
 * state) loaded by `import()` only when the client needs it: at once for a client that paces, shares
 * state or gets its own tokens; on its first 429 for any other — so a bundle splits it off what a
 * browser client with a static token loads first. Until then nothing can hold a call back: no
 * budget, no store, no pause.
 */
export class Pacing {
  readonly #settings: PacerSettings;
  #pacer: Pacer | undefined;
  #loading: Promise<Pacer> | undefined;
  /** Pauses (429s) seen while the code loads, applied before any call can reserve through the pacer. */
  readonly #pauses: Array<(pacer: Pacer) => void> = [];

  constructor(settings: PacerSettings, eager: boolean) {
    this.#settings = settings;
    if (eager) void this.parts();
  }

  /** The pacer (with the fail-safe state and the account), loaded on first use. */
  parts(): Promise<Pacer> {
    this.#loading ??= import('./pacer.js').then(({ Pacer }) => {
      const pacer = new Pacer(...this.#settings);
      for (const pause of this.#pauses.splice(0)) pause(pacer);
      this.#pacer = pacer;
      return pacer;
    });
    return this.#loading;
  }

  /** As {@link Pacer.reserve}; while the code loads, the call waits for it. */
  reserve(
    version: ApiVersion,
    maxWait: number,
    bound: number,
    after429: boolean,
    signal?: AbortSignal,
  ): Promise<Reservation> | undefined {
    if (this.#pacer !== undefined) return this.#pacer.reserve(version, maxWait, bound, after429, signal);
    return this.#loading?.then(
      (pacer) => pacer.reserve(version, maxWait, bound, after429, signal) ?? NO_WAIT,
    );
  }

  /** As {@link Pacer.planSeen}. */
  planSeen(limit: number): void {
    void this.parts().then((pacer) => pacer.planSeen(limit));
  }

  /**
   * As {@link Pacer.pause}. While the code loads, the pause is applied as the pacer is made: a call
   * that reserves as soon as it exists is held back by it (a later `then` on the load could come
   * after that call).
   */
  pause(version: ApiVersion, ms: number): Promise<void> {
    if (this.#pacer !== undefined) return this.#pacer.pause(version, ms);
    return new Promise<void>((resolve, reject) => {
      this.#pauses.push((pacer) => pacer.pause(version, ms).then(resolve, reject));
      this.parts().catch(reject);
    });
  }
}
