import type { ApiVersion } from '../errors.js';
import type { Pacer } from './pacer.js';
import type { Reservation } from './shared-state.js';

const NO_WAIT: Reservation = { waitMs: 0, reason: undefined };

/**
 * A client's pacing and shared state, with their code (pacer.ts, fail-safe-state.ts, the in-memory state)
 * loaded only when the client needs it: at once for a client that paces, shares state or gets its
 * own tokens; on its first 429 for any other — so a browser client with a static token loads none
 * of it up front. Until then nothing can hold a call back: no budget, no store, no pause.
 */
export class Pacing {
  readonly #load: () => Promise<Pacer>;
  #pacer: Pacer | undefined;
  #loading: Promise<Pacer> | undefined;

  constructor(load: () => Promise<Pacer>, eager: boolean) {
    this.#load = load;
    if (eager) void this.parts();
  }

  /** The pacer (with the fail-safe state and the account), loaded on first use. */
  parts(): Promise<Pacer> {
    this.#loading ??= this.#load().then((pacer) => (this.#pacer = pacer));
    return this.#loading;
  }

  /** As {@link Pacer.reserve}; while the code loads, the call waits for it. */
  reserve(
    version: ApiVersion,
    maxWait: number,
    bound: number,
    after429: boolean,
  ): Promise<Reservation> | undefined {
    if (this.#pacer !== undefined) return this.#pacer.reserve(version, maxWait, bound, after429);
    return this.#loading?.then((pacer) => pacer.reserve(version, maxWait, bound, after429) ?? NO_WAIT);
  }

  /** As {@link Pacer.planSeen}. */
  planSeen(limit: number): void {
    void this.parts().then((pacer) => pacer.planSeen(limit));
  }

  /** As {@link Pacer.pause}. */
  pause(version: ApiVersion, ms: number): Promise<void> {
    return this.#pacer?.pause(version, ms) ?? this.parts().then((pacer) => pacer.pause(version, ms));
  }
}
