import type { DedupStore } from '../webhooks/dedup.js';
import { type RedisConnection, sendOver } from './connection.js';
import { checkPrefix, DEFAULT_PREFIX } from './keys.js';
import { LOCK, UNLOCK } from './scripts.js';
import type { RedisStoreOptions } from './state.js';

/**
 * A webhook {@link DedupStore} in Redis, shared by every receiver instance that uses the same server
 * and prefix: `<prefix>webhook:<event id>:done` remembers a processed event for its TTL, and
 * `<prefix>webhook:<event id>:claim` holds the token of the one delivery processing the event. Keys and
 * values hold no secret.
 *
 * A claim is taken, or renewed by its own token, in one script (free or already this token's: set
 * with the lease); a release deletes it only if the token still holds it, in one script. `add` leaves
 * the claim to lapse with its lease: the two keys may live on different Redis Cluster nodes, so no
 * script can check both, and the claim left in place is what refuses a delivery that read `has` just
 * before the id was remembered. A call without a token (a wrapper written before tokens) claims as
 * `SET … NX` did and releases as `DEL` did.
 *
 * @param client a connected node-redis (`createClient`, `createCluster`) or ioredis (`Redis`,
 *   `Cluster`) client; the caller keeps it and closes it.
 */
export function redisDedupStore(client: RedisConnection, options: RedisStoreOptions = {}): DedupStore {
  const send = sendOver(client);
  const prefix = checkPrefix(options.prefix ?? DEFAULT_PREFIX);
  const key = (id: string, kind: 'done' | 'claim') => `${prefix}webhook:${id}:${kind}`;
  return {
    async has(id) {
      return Number(await send(['EXISTS', key(id, 'done')], key(id, 'done'))) === 1;
    },
    async add(id, ttlSeconds) {
      // EX takes whole seconds, at least 1.
      const seconds = String(Math.max(1, Math.ceil(ttlSeconds)));
      await send(['SET', key(id, 'done'), '1', 'EX', seconds], key(id, 'done'));
    },
    async claim(id, leaseSeconds, token = crypto.randomUUID()) {
      const lease = String(Math.max(1, Math.ceil(leaseSeconds * 1000)));
      return Number(await LOCK.run(send, [key(id, 'claim')], [token, lease])) === 1;
    },
    async release(id, token) {
      const claim = key(id, 'claim');
      await (token === undefined ? send(['DEL', claim], claim) : UNLOCK.run(send, [claim], [token]));
    },
  };
}
