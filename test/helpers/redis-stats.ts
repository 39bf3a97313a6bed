import type { RedisConnection } from 'telephony-sdk/redis';

type Command = (...args: string[]) => Promise<unknown>;

/**
 * The EVAL and EVALSHA calls a redis-server counted since its last `CONFIG RESETSTAT` (`INFO
 * commandstats`; the other counters also count the commands scripts run inside, so they say nothing
 * about round trips).
 */
export async function scriptCalls(
  command: Command,
): Promise<Record<string, { calls: number; failed: number }>> {
  const info = String(await command('INFO', 'commandstats'));
  const stats: Record<string, { calls: number; failed: number }> = {};
  for (const [, name = '', calls, failed] of info.matchAll(
    /^cmdstat_(eval|evalsha):calls=(\d+),.*failed_calls=(\d+)/gm,
  )) {
    stats[name] = { calls: Number(calls), failed: Number(failed) };
  }
  return stats;
}

/**
 * Runs `operation` until the server has seen an EVALSHA (at most 50 times): the SDK computes a
 * script's digest on first use and sends EVAL until it is ready, so a test of the steady state
 * starts from there.
 */
export async function untilScriptsByDigest(
  command: Command,
  operation: () => Promise<unknown>,
): Promise<void> {
  await command('CONFIG', 'RESETSTAT');
  for (let attempt = 0; attempt < 50; attempt++) {
    await operation();
    if ((await scriptCalls(command)).evalsha !== undefined) return;
  }
  throw new Error('the SDK never sent EVALSHA');
}

/**
 * The same real client, with every command the SDK sends through it recorded by name (node-redis
 * `sendCommand`, ioredis `call`): each one is a round trip.
 */
export function countingClient(client: RedisConnection): { client: RedisConnection; sent: string[] } {
  const sent: string[] = [];
  const counted = new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || (name !== 'sendCommand' && name !== 'call')) return value;
      return (...args: unknown[]) => {
        const command = name === 'call' ? args[0] : (args.find(Array.isArray) as unknown[])[0];
        sent.push(String(command));
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client: counted, sent };
}
