import type { DedupStore } from './dedup.js';
import { bounded, unref } from './timers.js';

/** One delivery's claim on an event id (API.md, Webhooks): taken, renewed and released by it alone. */
export interface Claim {
  /** Random, this delivery's only: another delivery cannot renew, release or end its claim. */
  token: string;
  /** Stops the renewals, once the handlers have settled. */
  end(): void;
  /** Drops the claim after a failure, so the re-delivery runs; a failed release leaves it to its lease. */
  release(): Promise<void>;
}

/**
 * Takes the claim on `id` for one delivery, or `undefined` when another delivery holds it. A store
 * without `claim` gives a claim that holds nothing.
 *
 * The lease is `handlerTimeout` in whole seconds (Redis `EX` takes no other), an hour when that is
 * Infinity, and the claim is renewed every third of it until `end()`: the handlers may run past
 * handlerTimeout's answer, and the claim lasts as long as they do; two renewals may fail before it
 * lapses. Once one says the claim is not this delivery's (a store without tokens always does),
 * `release()` does nothing: it could free another delivery's claim.
 */
export async function claimEvent(store: DedupStore, id: string, timeout: number): Promise<Claim | undefined> {
  const lease = Math.ceil(Math.min(timeout, 3600));
  const token = crypto.randomUUID();
  const claim = () => bounded(store.claim?.(id, lease, token));
  if (store.claim && !(await claim())) return;
  let held = true;
  const renewal =
    store.claim &&
    unref(
      setInterval(async () => {
        try {
          held = !!(await claim());
        } catch {}
      }, lease * 333),
    );
  return {
    token,
    end: () => clearInterval(renewal),
    release: async () => {
      if (held)
        try {
          await bounded(store.release?.(id, token));
        } catch {}
    },
  };
}
