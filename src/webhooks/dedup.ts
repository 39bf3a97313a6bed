import { TelephonyError } from '../shared/telephony-error.js';
import { warn } from './warn.js';

/**
 * Remembers processed event ids; back it with Redis or a database to share it between instances.
 *
 * `token` is random and unique to one delivery. A store written before the receiver passed it keeps
 * working: its `claim` still keeps other deliveries out for the lease, the receiver's renewals of it
 * answer `false` (harmless), and after one has, the receiver no longer calls its `release`, which
 * could delete another delivery's claim: that claim then lapses with its lease.
 *
 * The receiver bounds every call to 2 s: one that has not settled by then counts as failed (500
 * `store_error`, re-delivered later), whatever the store's driver queues meanwhile.
 */
export interface DedupStore {
  /** Whether the event `id` was processed and is still remembered. */
  has(id: string): boolean | Promise<boolean>;
  /**
   * Remembers `id` for `ttlSeconds` **seconds**; called only after every handler succeeded. It may end
   * the claim `token` holds on `id` (never another's) if `claim` refuses a remembered id, as
   * `MemoryDedupStore` does, or leave the claim to lapse with its lease, as `redisDedupStore` does:
   * either way a delivery that read `has` just before cannot claim the id after.
   */
  add(id: string, ttlSeconds: number, token?: string): void | Promise<void>;
  /**
   * Optional, for several instances sharing the store: atomically takes the claim on `id` for `token`
   * for `leaseSeconds` (whole seconds, at least `handlerTimeout`), if nobody holds it or `token`
   * already does (its lease then starts again: the receiver renews it so while the handlers run), and
   * says whether `token` holds it now. Another delivery of `id` meanwhile answers 409 `in_progress`.
   * Without it, a re-delivery reaching a second instance while the first still runs the handlers runs
   * them there too.
   */
  claim?(id: string, leaseSeconds: number, token?: string): boolean | Promise<boolean>;
  /** Optional, with `claim`: drops the claim if `token` holds it (after a failure, so the re-delivery runs). */
  release?(id: string, token?: string): void | Promise<void>;
}

/** Options of {@link MemoryDedupStore}. */
export interface MemoryDedupStoreOptions {
  /** Most ids kept; the oldest are forgotten first. Default 10 000. */
  maxSize?: number;
  /** Current time in milliseconds, for tests. Default `Date.now`. */
  now?: () => number;
}

/** The default store: in memory, bounded in size and in time; claims follow {@link DedupStore.claim}. */
export class MemoryDedupStore implements DedupStore {
  readonly #expiries = new Map<string, number>();
  /** Claims held: id → [token, end of the lease in ms]. Each ends with its delivery (add or release). */
  readonly #claims = new Map<string, [string | undefined, number]>();
  readonly #maxSize: number;
  readonly #now: () => number;
  #warned = false;

  constructor({ maxSize = 10_000, now = Date.now }: MemoryDedupStoreOptions = {}) {
    // NaN, Infinity, 0 or 1.5 would keep every id or none.
    if (!(Number.isInteger(maxSize) && maxSize > 0))
      throw new TelephonyError('maxSize must be a positive integer');
    this.#maxSize = maxSize;
    this.#now = now;
  }

  /** Whether `id` was added less than its TTL ago. */
  has(id: string): boolean {
    // An unknown id compares as 0 (every expiry is later); deleting it then is a no-op.
    if ((this.#expiries.get(id) ?? 0) > this.#now()) return true;
    this.#expiries.delete(id);
    return false;
  }

  /** Remembers `id` for `ttlSeconds` seconds and ends `token`'s claim on it; past `maxSize` ids, the oldest is forgotten. */
  add(id: string, ttlSeconds: number, token?: string): void {
    this.release(id, token);
    this.#expiries.delete(id);
    this.#expiries.set(id, this.#now() + ttlSeconds * 1000);
    if (this.#expiries.size > this.#maxSize) {
      const [oldest, expiry] = this.#expiries.entries().next().value as [string, number];
      this.#expiries.delete(oldest);
      // Forgotten before its ttl: a re-delivery of it would run the handlers again. Said once per store.
      if (expiry > this.#now() && !this.#warned) {
        this.#warned = true;
        warn(
          'MemoryDedupStore evicted an unexpired id (maxSize): a re-delivery runs handlers again. Share a store: redisDedupStore (telephony-sdk/redis) or any DedupStore',
        );
      }
    }
  }

  /** Takes or renews `token`'s claim on `id` for `leaseSeconds`; `false` while another holds it or `id` is remembered. */
  claim(id: string, leaseSeconds: number, token?: string): boolean {
    const now = this.#now();
    const [holder, end = 0] = this.#claims.get(id) ?? [];
    if (this.has(id) || (holder !== token && end > now)) return false;
    this.#claims.set(id, [token, now + leaseSeconds * 1000]);
    return true;
  }

  /** Drops the claim on `id` if `token` holds it. */
  release(id: string, token?: string): void {
    if (this.#claims.get(id)?.[0] === token) this.#claims.delete(id);
  }
}
