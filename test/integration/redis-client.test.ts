import type { SharedStateErrorEvent, ThrottleEvent } from 'telephony-sdk';
import { redisState } from 'telephony-sdk/redis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import { closeRedisClients, redisClients } from '../helpers/redis-clients.js';
import { countingClient, untilScriptsByDigest } from '../helpers/redis-stats.js';
import { serveSandbox } from './helpers.js';

// Two TelephonyClients, one over node-redis and one over ioredis, sharing one redisState against the
// sandbox over real HTTP. The clients sleep on the sandbox clock, so a paced wait costs no real time;
// Redis's clock barely moves meanwhile, which only spaces the calls further apart in sandbox time.

afterEach(closeRedisClients);
afterAll(stopAllRedis);

const recent = { method: 'GET', path: '/v2/calls/recent' } as const;
const plan = { requestsPerMinute: 5 };
const credentials = { clientId: 'app_redis', clientSecret: 'secret_redis_CANARY' };

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
});

async function fleet(rateLimit: typeof plan | false) {
  const { sandbox, client } = await serveSandbox({ clients: [{ ...credentials, plan }] });
  const events = {
    throttles: [] as Array<ThrottleEvent & { client: number }>,
    errors: [] as SharedStateErrorEvent[],
  };
  const connections = [await redisClients[0]![1](server), await redisClients[2]![1](server)];
  await connections[0]!.command('FLUSHALL');
  const counted = connections.map((connection) => countingClient(connection.client));
  const clients = counted.map((connection, index) => {
    const sdk = client({
      ...credentials,
      rateLimit,
      sharedState: redisState(connection.client),
      maxRetryAfter: 3600,
    });
    sdk.on('throttle', (event) => events.throttles.push({ ...event, client: index }));
    sdk.on('shared_state_error', (event) => events.errors.push(event));
    return sdk;
  });
  const usage = () => sandbox.rateReport().find((u) => u.version === 'v2' && u.id === credentials.clientId);
  return { clients, events, usage, raw: connections[0]!, sent: counted.map((c) => c.sent) };
}

it('paced by one budget in Redis: 12 calls from two clients, one token request, no window over the plan, no 429', async () => {
  const { clients, events, usage, raw } = await fleet(plan);
  for (let i = 0; i < 12; i++) await clients[i % 2]!.request(recent);
  expect(usage()).toMatchObject({ counted: 12, rejected: 0, tokensIssued: 1, limit: 5 });
  expect(usage()!.maxInWindow).toBeLessThanOrEqual(5);
  expect(events.throttles).toHaveLength(7);
  expect(events.throttles.every((event) => event.reason === 'pacing' && event.waitMs > 55_000)).toBe(true);
  expect(events.errors).toEqual([]);
  const keys = ((await raw.command('KEYS', '*')) as string[]).sort();
  expect(keys).toHaveLength(4);
  expect(keys[0]).toMatch(/^telephony:\{app_redis\}:token:[0-9a-f]+:token$/);
  expect(keys.slice(1)).toEqual([
    'telephony:{app_redis}:v2:epoch',
    'telephony:{app_redis}:v2:members',
    'telephony:{app_redis}:v2:window',
  ]);
});

it("a 429 seen by one client pauses the other through Redis ('throttle' reason 'paused')", async () => {
  const { clients, events, usage } = await fleet(false);
  for (let i = 0; i < 5; i++) await clients[0]!.request(recent);
  await clients[0]!.request(recent); // the sandbox answers 429 with Retry-After; the client waits and retries
  expect(usage()).toMatchObject({ rejected: 1 });
  await clients[1]!.request(recent);
  const paused = events.throttles.filter((event) => event.client === 1);
  expect(paused).toHaveLength(1);
  expect(paused[0]).toMatchObject({ reason: 'paused' });
  expect(paused[0]!.waitMs).toBeGreaterThan(0);
  expect(events.errors).toEqual([]);
});

it('one round trip to Redis per paced call once warm: one EVALSHA (budget and pause in one script), the token kept by the client', async () => {
  const { clients, events, raw, sent } = await fleet(plan);
  // Warm: the token requested once and shared, and the scripts' digests computed.
  await untilScriptsByDigest(raw.command, async () => {
    await clients[0]!.request(recent);
    await clients[1]!.request(recent);
  });
  for (const commands of sent) commands.length = 0;
  // Past the plan too: a call that waits for budget still makes one reservation.
  for (let i = 0; i < 8; i++) await clients[i % 2]!.request(recent);
  expect(sent).toEqual([Array(4).fill('EVALSHA'), Array(4).fill('EVALSHA')]);
  expect(events.throttles.length).toBeGreaterThan(0);
  expect(events.errors).toEqual([]);
});
