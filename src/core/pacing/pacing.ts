import type { ApiVersion } from '../errors.js';
import type { SharedStateGuard } from './guard.js';
import type { Pacer } from './pacer.js';
import type { Reservation } from './shared-state.js';

/** What a client shares through its state: the guard over the store, and the pacer on top of it. */
export interface SharedParts {
  guard: SharedStateGuard;
  /** The account part of shared-state keys. */
  account: string;
  pacer: Pacer;
}

const NO_WAIT: Reservation = { waitMs: 0, reason: undefined };

/**
 * A client's pacing and shared state, with their code (pacer.ts, guard.ts, the in-memory state)
 * loaded only when the client needs it: at once for a client that paces, shares state or gets its
 * own tokens; on its first 429 for any other — so a browser client with a static token loads none
 * of it up front. Until then nothing can hold a call back: no budget, no store, no pause.
 */
export class Pacing {
  readonly #load: () => Promise<SharedParts>;
  #parts: SharedParts | undefined;
  #loading: Promise<SharedParts> | undefined;

  constructor(load: () => Promise<SharedParts>, eager: boolean) {
    this.#load = load;
    if (eager) void this.parts();
  }

  /** The guard and the pacer, loaded on first use. */
  parts(): Promise<SharedParts> {
    this.#loading ??= this.#load().then((parts) => {
      this.#parts = parts;
      return parts;
    });
    return this.#loading;
  }

  /** As {@link Pacer.reserve}; while the code loads, the call waits for it. */
  reserve(
    version: ApiVersion,
    maxWait: number,
    bound: number,
    after429: boolean,
  ): Promise<Reservation> | undefined {
    if (this.#parts !== undefined) return this.#parts.pacer.reserve(version, maxWait, bound, after429);
    return this.#loading?.then(({ pacer }) => pacer.reserve(version, maxWait, bound, after429) ?? NO_WAIT);
  }

  /** As {@link Pacer.planSeen}. */
  planSeen(limit: number): void {
    void this.parts().then(({ pacer }) => pacer.planSeen(limit));
  }

  /** As {@link Pacer.pause}. */
  pause(version: ApiVersion, ms: number): Promise<void> {
    if (this.#parts !== undefined) return this.#parts.pacer.pause(version, ms);
    return this.parts().then(({ pacer }) => pacer.pause(version, ms));
  }
}
