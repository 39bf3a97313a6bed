import type { Clock } from '../clock.js';
import type { ApiVersion } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import type { ResolvedOptions } from '../options.js';
import { FailSafeState } from './fail-safe-state.js';
import type { FleetBudget, RateBudget, Reservation } from './shared-state.js';

/**
 * The reservation before an attempt of a version's calls; a client without pacing nor pause skips the
 * store. It is what {@link Pacing} loads: with the fail-safe state over the client's `sharedState` (or its own
 * memory) and the account, the part of shared-state keys that says whose budget, pauses and token
 * they are (the token's key is made with them).
 */
export class Pacer {
  readonly failSafe: FailSafeState;
  readonly account: string;
  readonly #budget: RateBudget | undefined;
  readonly #clock: Clock;
  readonly #events: ClientEmitter;
  /** The budget with a store that gives one (`redisState`): what a slow, failed or restarted store cannot push past the plan. */
  readonly #share: FleetBudget | undefined;
  /** A 429 showed a plan smaller than `rateLimit`: said once. */
  #warned = false;
  /** The longest pause a 429 may set: the client's `maxRetryAfter`. */
  readonly #maxPauseMs: number;
  /** The latest pause this client set or saw; lets a client without a shared store skip the state. */
  #pausedUntil = 0;

  /**
   * A 429's pause lasts at most the client's `maxRetryAfter`; a store call that belongs to no call (the
   * token's) at most the client's `timeout`.
   */
  constructor(options: ResolvedOptions, events: ClientEmitter) {
    const { budget, clock } = options;
    this.failSafe = new FailSafeState(options.sharedState, clock, events, options.timeout);
    this.account = options.account;
    this.#budget = budget;
    this.#clock = clock;
    this.#events = events;
    if (budget !== undefined) this.#share = this.failSafe.fleetBudget();
    this.#maxPauseMs = options.maxRetryAfterMs;
  }

  /**
   * `undefined` when nothing can hold the call back (no budget, no shared store, no pause). A slot
   * farther than `maxWaitMs` is not taken: a call that gives up does not spend the budget. The store
   * has `boundMs` (the attempt's timeout) to answer. `retryOf429`: the attempt repeats one the
   * service refused (429, not counted), so it sends in that attempt's slot instead of booking one
   * behind the window — a 429 costs its `Retry-After` (the pause), not a window. `signal`: the
   * call's, which ends a hold of the fleet share.
   */
  reserve(
    version: ApiVersion,
    maxWaitMs: number,
    boundMs: number,
    retryOf429: boolean,
    signal?: AbortSignal,
  ): Promise<Reservation> | undefined {
    const now = this.#clock.now();
    const scope = `${this.account}:${version}`;
    const budget = retryOf429 ? undefined : this.#budget;
    if (budget === undefined && !this.failSafe.shared && now >= this.#pausedUntil) return undefined;
    const asked = budget === undefined ? undefined : { ...budget, maxWaitMs };
    if (asked !== undefined && this.#share !== undefined)
      return this.#share.reserve(scope, asked, now, boundMs, signal);
    return this.failSafe.run('reserve', (state) => state.reserve(scope, asked, now), boundMs);
  }

  /**
   * A 429 named the plan's requests per minute: fewer than `rateLimit` means the client paces for a
   * plan the account does not have, and every window ends in 429s. Said once, as `'warning'`.
   */
  planSeen(limit: number): void {
    const budget = this.#budget;
    if (this.#warned || budget === undefined || limit >= budget.limit) return;
    this.#warned = true;
    this.#events.emit('warning', {
      code: 'rate_limit_above_plan',
      message: `rateLimit allows ${budget.limit} requests per minute, but the service enforces ${limit} (a 429 said so): set rateLimit to the account's plan`,
      rateLimit: budget.limit,
      planLimit: limit,
    });
  }

  /**
   * Pauses a version's calls for `ms` (a 429's `Retry-After`), for every client sharing the state — at
   * most `maxRetryAfter`: a proxy's `Retry-After: 86400` must not stop a fleet for a day (nor, stored in
   * a shared store, outlive a restart). After that the next call goes out and the service decides again.
   */
  pause(version: ApiVersion, retryAfterMs: number): Promise<void> {
    const ms = Math.min(retryAfterMs, this.#maxPauseMs);
    const now = this.#clock.now();
    const scope = `${this.account}:${version}`;
    this.#pausedUntil = Math.max(this.#pausedUntil, now + ms);
    return this.failSafe.run('pause', (state) => state.pause(scope, ms, now));
  }
}
