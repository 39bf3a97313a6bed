import type { Deadlines } from '../shared/deadlines.js';
import type { DedupStore, DedupStoreWithBegin } from './dedup.js';
import { bounded } from './timers.js';

/** One delivery's claim on an event id (API.md, Webhooks): taken, renewed and released by it alone. */
export interface Claim {
  /** This delivery's only: another delivery cannot renew, release or end its claim. */
  token: string;
  /** Stops the renewals, once the handlers have settled. */
  end(): void;
  /** Drops the claim after a failure, so the re-delivery runs; a failed release leaves it to its lease. */
  release(): Promise<void>;
}

/** The time-outs a claim runs on: the store's 2 s, and a third of the lease between renewals. */
export interface ClaimTimers {
  store: Deadlines;
  renewal: Deadlines;
}

/**
 * Takes the claim on `id` for one delivery (`token`): the claim, or `'done'` when the id is remembered
 * (a duplicate), or `'held'` when another delivery holds it. A store with `begin` answers that in one
 * call; otherwise `has`, then `claim`, then `has` again when the claim is refused (the id may have
 * been finished since). A store without `claim` gives a claim that holds nothing.
 *
 * The lease is `lease` whole seconds, and the claim is renewed every third of it until `end()`:
 * the handlers may run past handlerTimeout's answer, and the claim lasts as long as they do; two
 * renewals may fail before it lapses. A handler that ends within a third of the lease (nearly all)
 * costs no renewal. Once a renewal says the claim is not this delivery's (a store without tokens
 * always does), `release()` does nothing: it could free another delivery's claim.
 */
export async function claimEvent(
  store: DedupStore,
  id: string,
  lease: number,
  token: string,
  timers: ClaimTimers,
): Promise<Claim | 'done' | 'held'> {
  const claim = () => bounded(store.claim?.(id, lease, token), timers.store);
  const begin = (store as Partial<DedupStoreWithBegin>).begin;
  if (begin) {
    const answer = await bounded(begin.call(store, id, lease, token), timers.store);
    if (answer !== 'claimed') return answer;
  } else {
    if (await bounded(store.has(id), timers.store)) return 'done';
    if (store.claim && !(await claim()))
      return (await bounded(store.has(id), timers.store)) ? 'done' : 'held';
  }
  let held = true;
  let watched: ReturnType<Deadlines['watch']> | undefined;
  const renew = () => {
    watched = timers.renewal.watch(renew);
    Promise.resolve()
      .then(claim)
      .then(
        (holds) => {
          held = !!holds;
        },
        () => {},
      );
  };
  if (store.claim) watched = timers.renewal.watch(renew);
  return {
    token,
    end: () => {
      if (watched) timers.renewal.finish(watched);
    },
    release: async () => {
      if (held)
        try {
          await bounded(store.release?.(id, token), timers.store);
        } catch {}
    },
  };
}
