/**
 * The Redis clients the entry accepts, typed by shape only: importing `redis` or `ioredis` types
 * here would put them in the published `.d.ts` and make every user install both.
 */

/** A connected node-redis client (`createClient()`, v4 and later). */
export interface NodeRedisClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/** A connected node-redis cluster client (`createCluster()`, v4.6 and later). */
export interface NodeRedisCluster {
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  readonly masters: unknown;
}

/** A connected ioredis client (`new Redis()` or `new Cluster()`, v5 and later). */
export interface IORedisClient {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** A connected client of either library; the caller keeps it and closes it. */
export type RedisConnection = NodeRedisClient | NodeRedisCluster | IORedisClient;

/** Sends one command; `key` is the first key it touches (a node-redis cluster routes by it). */
export type Send = (args: string[], key?: string) => Promise<unknown>;

/** One `send` over whichever client was given. */
export function sendOver(client: RedisConnection): Send {
  // ioredis first: its clients also have a `sendCommand`, which takes a Command object.
  if (typeof (client as Partial<IORedisClient>).call === 'function') {
    const io = client as IORedisClient;
    return ([command = '', ...args]) => io.call(command, ...args);
  }
  if (typeof (client as Partial<NodeRedisClient>).sendCommand === 'function') {
    if ('masters' in client) {
      const cluster = client as NodeRedisCluster;
      return (args, key) => cluster.sendCommand(key, false, args);
    }
    const single = client as NodeRedisClient;
    return (args) => single.sendCommand(args);
  }
  throw new TypeError(
    'telephony-sdk/redis: expected a connected node-redis (sendCommand) or ioredis (call) client',
  );
}
