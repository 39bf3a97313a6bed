import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimitError, TelephonyClient, type ThrottleEvent } from 'telephony-sdk';
import { redisState } from 'telephony-sdk/redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClientOptions } from '../../src/core/options.js';
import { fakeClock } from '../helpers/clock.js';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import { type ConnectedClient, closeRedisClients, redisClients } from '../helpers/redis-clients.js';

// API.md, Scale, over a real redis-server: a 429's pause is stored capped at the maxRetryAfter of the
// client that met it (a restarted process does not find a day-long pause), and `account` decides what
// is shared — never the credential. Each driver pair shares one server: the first client over
// node-redis, the others over ioredis (two processes). The HTTP side is a node:http server on
// 127.0.0.1 whose GET /v2/x answers 429 `Retry-After: 86400` to the token `tok_429`, 200 to any other.

const get = { method: 'GET', path: '/v2/x' } as const;
const DAY_S = '86400';

let http: Server;
let baseUrl: string;
let redis: RedisServer;
const seen: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  http = createServer((request, response) => {
    const token = request.headers.authorization?.replace('Bearer ', '') ?? '';
    seen.push(token);
    const limited = token === 'tok_429';
    response.writeHead(limited ? 429 : 200, {
      'content-type': 'application/json',
      ...(limited ? { 'retry-after': DAY_S } : {}),
    });
    response.end('{}');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await stopAllRedis();
});
afterEach(closeRedisClients);

let node: ConnectedClient;
let io: ConnectedClient;
beforeEach(async () => {
  seen.length = 0;
  node = await redisClients[0]![1](redis);
  io = await redisClients[2]![1](redis);
  await node.command('FLUSHALL');
});

/** A client over `connection` with a static token, on a fake clock (a wait costs no real time). */
function client(connection: ConnectedClient, options: ClientOptions) {
  const sdk = new TelephonyClient({
    baseUrl,
    maxRetries: 0,
    clock: fakeClock(Date.now()),
    sharedState: redisState(connection.client),
    ...options,
  });
  const throttles: ThrottleEvent[] = [];
  sdk.on('throttle', (event) => throttles.push(event));
  return { sdk, throttles };
}

describe('a pause over Redis lasts at most maxRetryAfter', () => {
  it('Retry-After 86400 is stored as a 60 s pause; a client started later waits at most that, then sends', async () => {
    const first = client(node, { accessToken: 'tok_429', account: 'acct_cap' });
    const error = await first.sdk.request(get).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 86_400 });
    // The pause is written beside the call, not before it settles: wait (bounded) for the key.
    const key = 'telephony:{acct_cap}:v2:pause';
    for (let i = 0; i < 100 && Number(await node.command('PTTL', key)) < 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ttl = Number(await node.command('PTTL', key));
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);

    // A process started now (its own connection, nothing in memory) finds the capped pause only.
    const later = client(io, { accessToken: 'tok_ok', account: 'acct_cap', maxRetryAfter: 3600 });
    await later.sdk.request(get);
    expect(later.throttles).toHaveLength(1);
    expect(later.throttles[0]!.reason).toBe('paused');
    expect(later.throttles[0]!.waitMs).toBeGreaterThan(55_000);
    expect(later.throttles[0]!.waitMs).toBeLessThanOrEqual(60_000);

    // One whose own maxRetryAfter is shorter is refused at once, blaming the pause.
    const impatient = client(io, { accessToken: 'tok_ok', account: 'acct_cap', maxRetryAfter: 5 });
    const refused = await impatient.sdk.request(get).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused).toMatchObject({ code: 'paused', status: 429 });
    expect((refused as RateLimitError).retryAfter).toBeGreaterThan(50);
    expect((refused as RateLimitError).retryAfter).toBeLessThanOrEqual(60);
    expect(seen).toEqual(['tok_429', 'tok_ok']);
  });
});

describe('account over Redis: what is shared, and under which keys', () => {
  it("different accounts share nothing (tenant A's 429 does not pause tenant B); one account shares the pause across static tokens", async () => {
    const a = client(node, { accessToken: async () => 'tok_429', account: 'tenant-a' });
    const b = client(io, { accessToken: async () => 'tok_b', account: 'tenant-b' });
    const a2 = client(io, { accessToken: 'tok_a2', account: 'tenant-a', maxRetryAfter: 3600 });
    await a.sdk.request(get).catch(() => {});
    const pause = 'telephony:{tenant-a}:v2:pause';
    for (let i = 0; i < 100 && Number(await node.command('EXISTS', pause)) === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await b.sdk.request(get);
    await a2.sdk.request(get);
    expect(b.throttles).toEqual([]);
    expect(a2.throttles).toHaveLength(1);
    expect(a2.throttles[0]!.reason).toBe('paused');
    expect(seen).toEqual(['tok_429', 'tok_b', 'tok_a2']);
    const keys = (await node.command('KEYS', '*')) as string[];
    expect(keys).toEqual([pause]);
  });
});
