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

/**
 * A {@link DedupStore} that answers `has` and `claim` in one call, `begin` (for a remote store, one
 * round trip instead of two); the receiver then calls neither before the handlers run.
 */
export interface DedupStoreWithBegin extends DedupStore {
  claim(id: string, leaseSeconds: number, token?: string): boolean | Promise<boolean>;
  /**
   * `'done'` when `id` is remembered; otherwise takes the claim as `claim` does and answers
   * `'claimed'`, or `'held'` while another delivery holds it.
   */
  begin(id: string, leaseSeconds: number, token: string): BeginAnswer | Promise<BeginAnswer>;
}

/** What {@link DedupStoreWithBegin.begin} answers. */
export type BeginAnswer = 'done' | 'claimed' | 'held';

/** Options of {@link MemoryDedupStore}. */
export interface MemoryDedupStoreOptions {
  /**
   * Memory ceiling, in bytes, of the ids kept (each counted as its length plus 100 bytes, about what
   * it costs on V8: a 30-character id ~130 B). Ids are kept for their TTL; past the ceiling the
   * oldest is forgotten first, with one warning. Default 64 MiB: some 500 000 ids of 30 characters.
   */
  maxBytes?: number;
  /** Most ids kept, as well (the oldest forgotten first). Default: no limit but `maxBytes`. */
  maxSize?: number;
  /** Current time in milliseconds, for tests. Default `Date.now`. */
  now?: () => number;
}

/** What one remembered id is counted as, besides its characters (see `maxBytes`). */
const ENTRY_BYTES = 100;

/**
 * The default store: in memory, ids kept for their TTL up to a memory ceiling (`maxBytes`), claims
 * following {@link DedupStore.claim}. Expired ids leave as new ones come in.
 */
export class MemoryDedupStore implements DedupStoreWithBegin {
  /** id → end of its TTL in ms, oldest first (one receiver adds every id with the same TTL). */
  readonly #expiries = new Map<string, number>();
  /** Claims held: id → [token, end of the lease in ms]. Each ends with its delivery (add or release). */
  readonly #claims = new Map<string, [string | undefined, number]>();
  readonly #maxBytes: number;
  readonly #maxSize: number;
  readonly #now: () => number;
  #bytes = 0;
  #warned = false;

  constructor({ maxBytes = 64 * 1024 * 1024, maxSize, now = Date.now }: MemoryDedupStoreOptions = {}) {
    // NaN, Infinity, 0 or 1.5 would keep every id or none (leave it out for no count limit).
    if (maxSize !== undefined && !(Number.isInteger(maxSize) && maxSize > 0))
      throw new TelephonyError('maxSize must be a positive integer');
    if (!(maxBytes > 0)) throw new TelephonyError('maxBytes must be a positive number of bytes');
    this.#maxBytes = maxBytes;
    this.#maxSize = maxSize ?? Number.POSITIVE_INFINITY;
    this.#now = now;
  }

  /** Whether `id` was added less than its TTL ago. */
  has(id: string): boolean {
    const expiry = this.#expiries.get(id);
    if (expiry === undefined) return false;
    if (expiry > this.#now()) return true;
    this.#forget(id);
    return false;
  }

  /** Remembers `id` for `ttlSeconds` seconds and ends `token`'s claim on it; past the ceiling, the oldest is forgotten. */
  add(id: string, ttlSeconds: number, token?: string): void {
    this.release(id, token);
    const now = this.#now();
    this.#forget(id);
    this.#expiries.set(id, now + ttlSeconds * 1000);
    this.#bytes += id.length + ENTRY_BYTES;
    for (const [oldest, expiry] of this.#expiries) {
      const full = this.#bytes > this.#maxBytes || this.#expiries.size > this.#maxSize;
      if (!(full || expiry <= now)) break;
      this.#forget(oldest);
      // Forgotten before its ttl: a re-delivery of it would run the handlers again. Said once per store.
      if (expiry > now && !this.#warned) {
        this.#warned = true;
        warn(
          'MemoryDedupStore forgot an id before its dedupTtl (its ceiling, maxBytes or maxSize, was reached): a re-delivery of that event runs its handlers again. Raise maxBytes, or share a store: redisDedupStore (telephony-sdk/redis) or any DedupStore',
        );
      }
    }
  }

  /** Takes or renews `token`'s claim on `id` for `leaseSeconds`; `false` while another holds it or `id` is remembered. */
  claim(id: string, leaseSeconds: number, token?: string): boolean {
    return !this.has(id) && this.#take(id, leaseSeconds, token);
  }

  /** `has` and `claim` at once. */
  begin(id: string, leaseSeconds: number, token: string): BeginAnswer {
    if (this.has(id)) return 'done';
    return this.#take(id, leaseSeconds, token) ? 'claimed' : 'held';
  }

  /** Drops the claim on `id` if `token` holds it. */
  release(id: string, token?: string): void {
    if (this.#claims.get(id)?.[0] === token) this.#claims.delete(id);
  }

  #take(id: string, leaseSeconds: number, token: string | undefined): boolean {
    const now = this.#now();
    const [holder, end = 0] = this.#claims.get(id) ?? [];
    if (holder !== token && end > now) return false;
    this.#claims.set(id, [token, now + leaseSeconds * 1000]);
    return true;
  }

  #forget(id: string): void {
    if (this.#expiries.delete(id)) this.#bytes -= id.length + ENTRY_BYTES;
  }
}
