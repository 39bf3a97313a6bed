import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisConnection } from 'telephony-sdk/redis';
import type { RedisServer } from './redis.js';

/**
 * The Redis clients `telephony-sdk/redis` accepts, connected to a test's server: node-redis (RESP2,
 * its default, and RESP3) and ioredis (RESP3, its default since v6, and RESP2, all ioredis 5 speaks).
 * Replies differ by protocol (ZRANGE … WITHSCORES is flat in RESP2, pairs in RESP3). Each reconnects every 20 ms; errors are collected instead of
 * thrown from the emitter. Close them with `closeRedisClients()` in an `afterEach`.
 */
export interface ConnectedClient {
  /** What the user passes to redisState / redisDedupStore (assigning it typechecks the real client types). */
  client: RedisConnection;
  /** One raw command, for tests that look at the keyspace. */
  command(...args: string[]): Promise<unknown>;
  /** The next time the client is connected and ready again. */
  nextReady(): Promise<void>;
  /** Whether it is connected and ready now. */
  isReady(): boolean;
  /** The next time it lost its connection. */
  nextReconnecting(): Promise<void>;
}

export interface ClientOptions {
  /** Fail commands at once while disconnected instead of queueing them until the reconnect. */
  failWhileDisconnected?: boolean;
  /** An ACL user to authenticate as, instead of `default`. */
  user?: { username: string; password: string };
}

const open: Array<() => unknown> = [];

const next = (emitter: { once(event: string, listener: () => void): unknown }, event: string) =>
  new Promise<void>((resolve) => emitter.once(event, () => resolve()));

async function nodeRedis(server: RedisServer, resp: 2 | 3, options: ClientOptions): Promise<ConnectedClient> {
  const client = createClient({
    url: server.url,
    RESP: resp,
    socket: { connectTimeout: 1_000, reconnectStrategy: () => 20 },
    disableOfflineQueue: options.failWhileDisconnected ?? false,
    ...options.user,
  });
  client.on('error', () => {});
  open.push(() => client.destroy());
  await client.connect();
  return {
    client,
    command: (...args) => client.sendCommand(args),
    nextReady: () => next(client, 'ready'),
    isReady: () => client.isReady,
    nextReconnecting: () => next(client, 'reconnecting'),
  };
}

async function ioRedis(
  server: RedisServer,
  protocol: 2 | 3,
  options: ClientOptions,
): Promise<ConnectedClient> {
  const client = new Redis(server.url, {
    protocol,
    lazyConnect: true,
    connectTimeout: 1_000,
    retryStrategy: () => 20,
    enableOfflineQueue: !options.failWhileDisconnected,
    ...options.user,
    ...(options.failWhileDisconnected ? { maxRetriesPerRequest: 0 } : {}),
  });
  client.on('error', () => {});
  open.push(() => client.disconnect());
  await client.connect();
  return {
    client,
    command: (name, ...args) => client.call(name, ...args),
    nextReady: () => next(client, 'ready'),
    isReady: () => client.status === 'ready',
    nextReconnecting: () => next(client, 'reconnecting'),
  };
}

/** `[name, connect]` pairs for `describe.each`. */
export const redisClients: Array<
  [string, (server: RedisServer, options?: ClientOptions) => Promise<ConnectedClient>]
> = [
  ['node-redis', (server, options = {}) => nodeRedis(server, 2, options)],
  ['node-redis RESP3', (server, options = {}) => nodeRedis(server, 3, options)],
  ['ioredis', (server, options = {}) => ioRedis(server, 3, options)],
  ['ioredis RESP2', (server, options = {}) => ioRedis(server, 2, options)],
];

/** Closes every client opened since the last call, ignoring errors (a paused server must not hold it up). */
export async function closeRedisClients(): Promise<void> {
  for (const close of open.splice(0)) {
    try {
      await close();
    } catch {}
  }
}

/**
 * Resolves once a reconnecting client is ready again (its 'ready' event; at once if it already is):
 * an event, not a poll, so a loaded machine only makes it later. The test's own timeout bounds it.
 */
export async function untilReady(connection: ConnectedClient): Promise<void> {
  if (!connection.isReady()) await connection.nextReady();
}
