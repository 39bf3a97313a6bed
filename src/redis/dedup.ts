import type { DedupStore } from '../webhooks/dedup.js';
import { type RedisConnection, sendOver } from './connection.js';
import { checkPrefix, DEFAULT_PREFIX } from './keys.js';
import type { RedisStoreOptions } from './state.js';

/**
 * A webhook {@link DedupStore} in Redis, shared by every receiver instance that uses the same server
 * and prefix: `<prefix>webhook:<event id>:done` remembers a processed event for its TTL, and
 * `<prefix>webhook:<event id>:claim` (`SET … NX EX`) lets one instance at a time process an event.
 * Keys and values hold no secret.
 *
 * @param client a connected node-redis (`createClient`, `createCluster`) or ioredis (`Redis`,
 *   `Cluster`) client; the caller keeps it and closes it.
 */
export function redisDedupStore(client: RedisConnection, options: RedisStoreOptions = {}): DedupStore {
  const send = sendOver(client);
  const prefix = checkPrefix(options.prefix ?? DEFAULT_PREFIX);
  const key = (id: string, kind: 'done' | 'claim') => `${prefix}webhook:${id}:${kind}`;
  // EX takes whole seconds, at least 1.
  const seconds = (value: number) => String(Math.max(1, Math.ceil(value)));
  return {
    async has(id) {
      return Number(await send(['EXISTS', key(id, 'done')], key(id, 'done'))) === 1;
    },
    async add(id, ttlSeconds) {
      await send(['SET', key(id, 'done'), '1', 'EX', seconds(ttlSeconds)], key(id, 'done'));
    },
    async claim(id, leaseSeconds) {
      return (
        (await send(['SET', key(id, 'claim'), '1', 'NX', 'EX', seconds(leaseSeconds)], key(id, 'claim'))) !==
        null
      );
    },
    async release(id) {
      await send(['DEL', key(id, 'claim')], key(id, 'claim'));
    },
  };
}
