import type { BeginAnswer, DedupStoreWithBegin } from '../webhooks/dedup.js';
import { type NodeRedisClient, type RedisConnection, type Send, sendOver } from './connection.js';
import { checkPrefix, DEFAULT_PREFIX } from './keys.js';
import { LOCK, UNCLAIM, UNLOCK } from './scripts.js';
import type { RedisStoreOptions } from './state.js';

/** The value of an event's key once it was processed; while it is claimed, the key holds the claim's token. */
const DONE = 'done';

/**
 * A webhook {@link DedupStore} in Redis, shared by every receiver instance that uses the same server
 * and prefix. One key per event, `<prefix>webhook:<event id>:event`: it holds the token of the one
 * delivery processing the event (for the claim's lease), then `done` (for `dedupTtl`). Keys and
 * values hold no secret.
 *
 * A delivery costs two commands, each one round trip: `begin` is `SET … NX PX … GET` (takes the claim
 * unless the key exists, and says what it held: `done`, or another delivery's token), and `add` is
 * `SET … done EX …`, which ends the claim in the same write. One key per event, so no script spans
 * two Redis Cluster nodes. A renewal (`claim`, for a handler that outlives a third of its lease) and a
 * release after a failure are scripts that touch the key only while it holds the token. A call
 * without a token (a wrapper written before tokens) claims as `SET … NX` did, and releases any claim
 * but never `done`.
 *
 * @param client a connected node-redis (`createClient`, `createCluster`) or ioredis (`Redis`,
 *   `Cluster`) client; the caller keeps it and closes it.
 */
export function redisDedupStore(
  client: RedisConnection,
  options: RedisStoreOptions = {},
): DedupStoreWithBegin {
  const send = untimedWhileReady(client) ?? sendOver(client);
  const prefix = checkPrefix(options.prefix ?? DEFAULT_PREFIX);
  const key = (id: string) => `${prefix}webhook:${id}:event`;
  // PX takes whole milliseconds, at least 1; EX whole seconds, at least 1.
  const ms = (seconds: number) => String(Math.max(1, Math.ceil(seconds * 1000)));
  return {
    async has(id) {
      return (await send(['GET', key(id)], key(id))) === DONE;
    },
    async add(id, ttlSeconds) {
      await send(['SET', key(id), DONE, 'EX', String(Math.max(1, Math.ceil(ttlSeconds)))], key(id));
    },
    async begin(id, leaseSeconds, token): Promise<BeginAnswer> {
      const held = await send(['SET', key(id), token, 'NX', 'PX', ms(leaseSeconds), 'GET'], key(id));
      if (held === null || held === undefined) return 'claimed';
      return held === DONE ? 'done' : 'held';
    },
    async claim(id, leaseSeconds, token = crypto.randomUUID()) {
      return Number(await LOCK.run(send, [key(id)], [token, ms(leaseSeconds)])) === 1;
    },
    async release(id, token) {
      await (token === undefined ? UNCLAIM.run(send, [key(id)], []) : UNLOCK.run(send, [key(id)], [token]));
    },
  };
}

/** node-redis's per-command options without its own command timeout. */
const UNTIMED = { timeout: 0 };

/**
 * node-redis (a single client) arms a timer on every command (`AbortSignal.timeout`, 5 s by default,
 * which fires even after the answer came): it costs a command about as much client CPU as the rest
 * of it, and the receiver bounds every store call at 2 s itself. While the client is ready, the
 * store's commands go without it: they are written on the next turn of the event loop, so the
 * driver's queue of unwritten commands, which that timer keeps short during a reconnect, is not
 * where they wait. While it is not ready they go as the client is configured (queued and dropped
 * by its timeout, or refused). A cluster client, ioredis, or a client without `isReady`: unchanged.
 */
function untimedWhileReady(client: RedisConnection): Send | undefined {
  const node = client as Partial<NodeRedisClient> & {
    call?: unknown;
    masters?: unknown;
    isReady?: unknown;
    sendCommand(args: string[], options?: typeof UNTIMED): Promise<unknown>;
  };
  if (node.call !== undefined || 'masters' in node || typeof node.isReady !== 'boolean') return undefined;
  if (typeof node.sendCommand !== 'function') return undefined;
  return (args) => (node.isReady ? node.sendCommand(args, UNTIMED) : node.sendCommand(args));
}
