import { fingerprint } from '../auth/fingerprint.js';
import type { Clock } from '../clock.js';
import type { ApiVersion } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import type { ClientOptions } from '../options.js';
import { SharedStateGuard } from './guard.js';
import type { SharedParts } from './pacing.js';
import { budgetOf } from './plans.js';
import type { RateBudget, Reservation } from './shared-state.js';

/** The reservation before an attempt of a version's calls; a client without pacing nor pause skips the store. */
export class Pacer {
  readonly #guard: SharedStateGuard;
  readonly #budget: RateBudget | undefined;
  readonly #clock: Clock;
  readonly #account: string;
  /** The latest pause this client set or saw; lets a client without a shared store skip the state. */
  #pausedUntil = 0;

  constructor(guard: SharedStateGuard, budget: RateBudget | undefined, clock: Clock, account: string) {
    this.#guard = guard;
    this.#budget = budget;
    this.#clock = clock;
    this.#account = account;
  }

  /**
   * `undefined` when nothing can hold the call back (no budget, no shared store, no pause). A slot
   * farther than `maxWaitMs` is not taken: a call that gives up does not spend the budget.
   */
  reserve(version: ApiVersion, maxWaitMs: number): Promise<Reservation> | undefined {
    const now = this.#clock.now();
    const scope = `${this.#account}:${version}`;
    const budget = this.#budget;
    if (budget === undefined && !this.#guard.shared && now >= this.#pausedUntil) return undefined;
    const asked = budget === undefined ? undefined : { ...budget, maxWaitMs };
    return this.#guard.run('reserve', (state) => state.reserve(scope, asked, now));
  }

  /** Pauses a version's calls for `ms` (a 429's `Retry-After`), for every client sharing the state. */
  pause(version: ApiVersion, ms: number): Promise<void> {
    const now = this.#clock.now();
    const scope = `${this.#account}:${version}`;
    this.#pausedUntil = Math.max(this.#pausedUntil, now + ms);
    return this.#guard.run('pause', (state) => state.pause(scope, ms, now));
  }
}

/**
 * A client's guard over its `sharedState` (or its own memory), its account and its pacer: what
 * {@link Pacing} loads. The account is the part of shared-state keys that says whose budget, pauses
 * and token they are: the client id, else a fingerprint of the credential (never the credential).
 */
export function sharedParts(options: ClientOptions, clock: Clock, events: ClientEmitter): SharedParts {
  const { accessToken, apiKey, clientId } = options;
  const staticToken = typeof accessToken === 'string' ? accessToken : undefined;
  const account = clientId ?? `key-${fingerprint(apiKey ?? staticToken ?? 'default')}`;
  const guard = new SharedStateGuard(options.sharedState, clock, events);
  return { guard, account, pacer: new Pacer(guard, budgetOf(options.rateLimit), clock, account) };
}
