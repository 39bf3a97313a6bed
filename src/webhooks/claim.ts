import type { Deadlines, Watched } from '../shared/deadlines.js';
import type { BeginAnswer, DedupStore, DedupStoreWithBegin } from './dedup.js';
import { andThen, bounded, isThenable } from './timers.js';

/** The time-outs a claim runs on: the store's 2 s, and a third of the lease between renewals. */
export interface ClaimTimers {
  store: Deadlines;
  renewal: Deadlines;
}

/**
 * One delivery's claim on an event id (API.md, Webhooks): taken, renewed and released by it alone.
 *
 * The lease is `lease` whole seconds. Once the handlers go asynchronous (`hold()`), the claim is
 * renewed every third of it until `end()`: the handlers may run past handlerTimeout's answer, and the
 * claim lasts as long as they do; two renewals may fail before it lapses. Handlers that settle
 * synchronously, or within a third of the lease (nearly all), cost no renewal and no timer entry. Once
 * a renewal says the claim is not this delivery's (a store without tokens always does), `release()`
 * does nothing: it could free another delivery's claim. A store without `claim` gives a claim that
 * holds nothing.
 */
export class Claim {
  /** This delivery's only: another delivery cannot renew, release or end its claim. */
  readonly token: string;
  readonly #store: DedupStore;
  readonly #id: string;
  readonly #lease: number;
  readonly #timers: ClaimTimers;
  #held = true;
  #watched: Watched | undefined;

  constructor(store: DedupStore, id: string, lease: number, token: string, timers: ClaimTimers) {
    this.#store = store;
    this.#id = id;
    this.#lease = lease;
    this.token = token;
    this.#timers = timers;
  }

  /** Starts the renewals: the handlers are running asynchronously. */
  hold(): void {
    if (this.#store.claim) this.#watched = this.#timers.renewal.watch(this.#renew);
  }

  /** Stops the renewals, once the handlers have settled. */
  end(): void {
    if (this.#watched) this.#timers.renewal.finish(this.#watched);
  }

  /**
   * Drops the claim after a failure, so the re-delivery runs; a failed release leaves it to its lease.
   * Synchronous for a synchronous store.
   */
  release(): void | Promise<void> {
    if (!this.#held) return;
    try {
      const released = bounded(this.#store.release?.(this.#id, this.token), this.#timers.store);
      if (isThenable(released)) return Promise.resolve(released).then(noop, noop);
    } catch {}
  }

  readonly #renew = (): void => {
    this.#watched = this.#timers.renewal.watch(this.#renew);
    const store = this.#store;
    Promise.resolve()
      .then(() => bounded(store.claim?.(this.#id, this.#lease, this.token), this.#timers.store))
      .then((holds) => {
        this.#held = !!holds;
      }, noop);
  };
}

const noop = () => {};

/**
 * Takes the claim on `id` for one delivery (`token`): the claim, or `'done'` when the id is remembered
 * (a duplicate), or `'held'` when another delivery holds it. A store with `begin` answers that in one
 * call (synchronously, for a synchronous store); otherwise `has`, then `claim`, then `has` again when
 * the claim is refused (the id may have been finished since). Throws (or rejects) what the store does.
 */
export function claimEvent(
  store: DedupStore,
  id: string,
  lease: number,
  token: string,
  timers: ClaimTimers,
): Claim | 'done' | 'held' | Promise<Claim | 'done' | 'held'> {
  const begin = (store as Partial<DedupStoreWithBegin>).begin;
  const answer = begin
    ? bounded(begin.call(store, id, lease, token), timers.store)
    : beginInSteps(store, id, lease, token, timers);
  return andThen(answer, (claimed) =>
    claimed === 'claimed' ? new Claim(store, id, lease, token, timers) : claimed,
  );
}

async function beginInSteps(
  store: DedupStore,
  id: string,
  lease: number,
  token: string,
  timers: ClaimTimers,
): Promise<BeginAnswer> {
  if (await bounded(store.has(id), timers.store)) return 'done';
  if (store.claim && !(await bounded(store.claim(id, lease, token), timers.store)))
    return (await bounded(store.has(id), timers.store)) ? 'done' : 'held';
  return 'claimed';
}
