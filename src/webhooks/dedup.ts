import { TelephonyError } from '../shared/telephony-error.js';
import { warn } from './warn.js';

/** Remembers processed event ids; back it with Redis or a database to share it between instances. */
export interface DedupStore {
  /** Whether the event `id` was processed and is still remembered. */
  has(id: string): boolean | Promise<boolean>;
  /** Remembers `id` for `ttlSeconds` **seconds**; called only after every handler succeeded. */
  add(id: string, ttlSeconds: number): void | Promise<void>;
  /**
   * Optional, for several instances sharing the store: atomically marks `id` as being processed for
   * `leaseSeconds` (Redis `SET … NX EX`) and says whether this caller got it. Without it, a
   * re-delivery reaching a second instance while the first still runs the handlers runs them there too.
   */
  claim?(id: string, leaseSeconds: number): boolean | Promise<boolean>;
  /** Optional, with `claim`: drops the claim after a failure, so the re-delivery runs the handlers. */
  release?(id: string): void | Promise<void>;
}

/** Options of {@link MemoryDedupStore}. */
export interface MemoryDedupStoreOptions {
  /** Most ids kept; the oldest are forgotten first. Default 10 000. */
  maxSize?: number;
  /** Current time in milliseconds, for tests. Default `Date.now`. */
  now?: () => number;
}

/** The default store: in memory, bounded in size and in time. */
export class MemoryDedupStore implements DedupStore {
  readonly #expiries = new Map<string, number>();
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
    const expiry = this.#expiries.get(id);
    if (expiry === undefined) return false;
    if (expiry > this.#now()) return true;
    this.#expiries.delete(id);
    return false;
  }

  /** Remembers `id` for `ttlSeconds` seconds; past `maxSize` ids, the oldest is forgotten. */
  add(id: string, ttlSeconds: number): void {
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
}
