import { TelephonyClient, type WarningEvent } from 'telephony-sdk';
import { redisState } from 'telephony-sdk/redis';
import type { Sandbox } from 'telephony-sdk/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fleetSandboxes } from '../helpers/fleet-sandbox.js';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import {
  type ClientOptions,
  closeRedisClients,
  redisClients,
  untilAnswers,
} from '../helpers/redis-clients.js';
import { type SlowProxy, slowProxy } from '../helpers/slow-proxy.js';

// Issue 19: what a fault of the shared store, or a late request, costs a fleet. Two clients, each
// with its own connection to one real redis-server (two processes as far as Redis can tell), against
// one sandbox on 127.0.0.1. Budgets are shown with maxRetryAfter 0: a call the budget would hold
// back is refused at once (`rate_budget_exhausted`, nothing sent), so a plan of 10 shows in
// milliseconds what a fleet would do over a minute; the sandbox's rateReport() says what reached it.
// Real Redis faults need real time: each is held for at most 1.5 s.

const recent = { method: 'GET', path: '/v2/calls/recent' } as const;
const credentials = { clientId: 'app_faults', clientSecret: 'secret_faults' };

let server: RedisServer;
const sandboxes = fleetSandboxes(credentials);
const serve = sandboxes.serve;
const proxies: SlowProxy[] = [];

beforeAll(async () => {
  server = await startRedis();
});
beforeEach(async () => {
  const raw = await redisClients[0]![1](server);
  await raw.command('FLUSHALL');
});
afterEach(async () => {
  await sandboxes.closeAll();
  for (const proxy of proxies.splice(0)) await proxy.close();
  await closeRedisClients();
});
afterAll(stopAllRedis);

type Connect = (typeof redisClients)[number][1];

/** A client of the fleet: its own Redis connection, `rateLimit` of the plan, maxRetryAfter 0. */
async function member(
  url: string,
  connect: Connect,
  redis: RedisServer | { url: string },
  limit: number,
  extra: Record<string, unknown> = {},
  connectOptions: ClientOptions = {},
) {
  const connection = await connect(redis as RedisServer, connectOptions);
  const stateErrors: string[] = [];
  const client = new TelephonyClient({
    baseUrl: url,
    baseUrlV1: url,
    ...credentials,
    rateLimit: { requestsPerMinute: limit },
    maxRetryAfter: 0,
    sharedState: redisState(connection.client),
    ...extra,
  });
  client.on('shared_state_error', (event) => stateErrors.push(event.error.message));
  /** `n` calls at once; each settles to 'ok' or the error's code. */
  const calls = (n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        client.request(recent).then(
          () => 'ok',
          (error: { code?: string }) => error.code ?? String(error),
        ),
      ),
    );
  return { client, connection, calls, stateErrors };
}

function count(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

describe.each([redisClients[0]!, redisClients[2]!])(
  'the fleet through store faults (%s)',
  (_name, connect) => {
    it('a slow store (every answer 1.1 s late) is waited for, not taken for a dead one: plan 4, 2 clients × 4 calls → 4 sent, 4 refused by the budget, 0 × 429', async () => {
      const { url, usage } = await serve(4);
      const proxy = await slowProxy(server, 0);
      proxies.push(proxy);
      const [a, b] = [await member(url, connect, proxy, 4), await member(url, connect, proxy, 4)];
      proxy.delayMs = 1_100;
      const outcomes = (await Promise.all([a.calls(4), b.calls(4)])).flat();
      expect(count(outcomes)).toEqual({ ok: 4, rate_budget_exhausted: 4 });
      expect(usage()).toMatchObject({ counted: 4, rejected: 0 });
      expect([...a.stateErrors, ...b.stateErrors]).toEqual([]);
    }, 30_000);

    it('frozen (SIGSTOP) for 1.5 s with the window full: calls wait for its answer (their own timeout bounds it), 0 × 429, no shared_state_error', async () => {
      const { url, usage } = await serve(10);
      const [a, b] = [await member(url, connect, server, 10), await member(url, connect, server, 10)];
      expect(count([...(await a.calls(5)), ...(await b.calls(5))])).toEqual({ ok: 10 });
      server.pause();
      let resumed = false;
      const resume = setTimeout(() => {
        resumed = true;
        server.resume();
      }, 1_500);
      try {
        const outcomes = (await Promise.all([a.calls(5), b.calls(5)])).flat();
        expect(resumed).toBe(true);
        expect(count(outcomes)).toEqual({ rate_budget_exhausted: 10 });
      } finally {
        clearTimeout(resume);
        if (!resumed) server.resume();
      }
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
      expect([...a.stateErrors, ...b.stateErrors]).toEqual([]);
    }, 30_000);

    it('restarted (empty) between two bursts: each client sees the window lost, keeps to its share (plan ÷ 2 processes): 0 × 429, and writes its sends back', async () => {
      const { url, usage } = await serve(10);
      const [a, b] = [await member(url, connect, server, 10), await member(url, connect, server, 10)];
      // a first, then b, then a again: by then both have seen the store count two processes.
      expect(count([...(await a.calls(1)), ...(await b.calls(5)), ...(await a.calls(4))])).toEqual({
        ok: 10,
      });
      await server.down();
      await server.up();
      // Each connection reconnects by itself (every 20 ms).
      for (const { connection } of [a, b]) await untilAnswers(connection);
      const outcomes = (await Promise.all([a.calls(5), b.calls(5)])).flat();
      expect(count(outcomes)).toEqual({ rate_budget_exhausted: 10 });
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
      // The next reservation of each wrote its 5 sends back into the window (plus the slots the 10
      // refused calls took before the loss showed: the window errs on the full side).
      await a.calls(1);
      await b.calls(1);
      const raw = await redisClients[0]![1](server);
      expect(Number(await raw.command('ZCARD', 'telephony:{app_faults}:v2:window'))).toBeGreaterThanOrEqual(
        10,
      );
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
    }, 30_000);

    it('down (connection refused, a client that fails fast while disconnected): each paces on its share of the plan, not the whole plan', async () => {
      const { url, usage } = await serve(10);
      const fast = { failWhileDisconnected: true };
      const [a, b] = [
        await member(url, connect, server, 10, {}, fast),
        await member(url, connect, server, 10, {}, fast),
      ];
      expect(count([...(await a.calls(1)), ...(await b.calls(3)), ...(await a.calls(2))])).toEqual({ ok: 6 });
      await server.down();
      try {
        // Share 10 ÷ 2 = 5, of which each has sent 3: 2 more each.
        const outcomes = (await Promise.all([a.calls(5), b.calls(5)])).flat();
        expect(count(outcomes)).toEqual({ ok: 4, rate_budget_exhausted: 6 });
      } finally {
        await server.up();
      }
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
      expect(a.stateErrors.length).toBeGreaterThanOrEqual(1);
      expect(b.stateErrors.length).toBeGreaterThanOrEqual(1);
    }, 30_000);
  },
);

/**
 * A client clock over a manual sandbox clock that moves time the way the wall clock would for
 * concurrent waits: every wait is due at its own time, and once nothing is in flight (no request
 * on the way, no new wait for 50 ms) the sandbox moves to the earliest due wait and it ends.
 * (`sandbox.clientClock` moves time by each wait in turn: concurrent waits would add up.)
 */
function steppedClock(sandbox: Sandbox) {
  const waits: Array<{ at: number; end: () => void }> = [];
  let inFlight = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const now = () => sandbox.clock.now();
  const step = async () => {
    timer = undefined;
    if (inFlight > 0 || waits.length === 0) return;
    const at = Math.min(...waits.map((w) => w.at));
    if (at > now()) await sandbox.advance(at - now());
    for (const due of waits.filter((w) => w.at <= at)) {
      waits.splice(waits.indexOf(due), 1);
      due.end();
    }
    arm();
  };
  const arm = () => {
    clearTimeout(timer);
    if (waits.length > 0) timer = setTimeout(() => void step(), 50);
  };
  return {
    clock: {
      now,
      sleep: (ms: number) =>
        new Promise<void>((end) => {
          waits.push({ at: now() + ms, end });
          arm();
        }),
    },
    /** Counts a request as in flight while it is on the way. */
    track: <T>(request: Promise<T>): Promise<T> => {
      inFlight++;
      return request.finally(() => {
        inFlight--;
        arm();
      });
    },
  };
}

describe.each([
  ['memory', undefined],
  ['redisState over node-redis', redisClients[0]!],
  ['redisState over ioredis', redisClients[2]!],
] as const)('a late request (%s)', (_name, redis) => {
  it('a 429 costs its Retry-After, not a window: 10 calls at 5/min, the first five reaching the service 1.5 s late → done in ≤ 66 s, one slot per call', async () => {
    const { sandbox, url, usage } = await serve(5, 'manual');
    const { clock, track } = steppedClock(sandbox);
    const connection = redis === undefined ? undefined : await redis[1](server);
    let sent = 0;
    const client = new TelephonyClient({
      baseUrl: url,
      ...credentials,
      rateLimit: { requestsPerMinute: 5 },
      maxRetryAfter: 300,
      clock,
      ...(connection === undefined ? {} : { sharedState: redisState(connection.client) }),
      // The first five requests (after the token's) reach the sandbox 1.5 s after the client sent them.
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        if (!String((input as Request).url).includes('/oauth/') && sent++ < 5) await clock.sleep(1_500);
        return track(globalThis.fetch(input, init));
      },
    });
    let retries = 0;
    client.on('retry', () => retries++);
    const started = sandbox.clock.now();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => client.request(recent).then(() => 'ok')),
    );
    const elapsed = sandbox.clock.now() - started;
    expect(outcomes).toEqual(Array(10).fill('ok'));
    // The second five were sent a window after the first five left, met the late ones still in the
    // service's window (429, Retry-After 1) and were sent again a second later.
    expect(retries).toBe(5);
    expect(usage()).toMatchObject({ counted: 10, rejected: 5 });
    expect(elapsed).toBeGreaterThanOrEqual(61_000);
    expect(elapsed).toBeLessThanOrEqual(66_000);
    if (connection !== undefined)
      expect(Number(await connection.command('ZCARD', 'telephony:{app_faults}:v2:window'))).toBe(10);
  }, 30_000);
});

describe("'warning'", () => {
  it('once, when a 429 names a plan smaller than rateLimit', async () => {
    const { url } = await serve(3);
    const warnings: WarningEvent[] = [];
    const client = new TelephonyClient({
      baseUrl: url,
      ...credentials,
      rateLimit: { requestsPerMinute: 5 },
      maxRetryAfter: 0,
    });
    client.on('warning', (event) => warnings.push(event));
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.request(recent).then(
          () => 'ok',
          (error: { code?: string }) => error.code ?? String(error),
        ),
      ),
    );
    expect(count(outcomes)).toEqual({ ok: 3, rate_limit_exceeded: 2 });
    // The plan is read from a copy of the 429's body, after the call has failed: bounded wait for it.
    await vi.waitFor(() => expect(warnings.length).toBeGreaterThan(0), { timeout: 2_000, interval: 10 });
    await client.request(recent).catch(() => {});
    expect(warnings).toEqual([
      {
        code: 'rate_limit_above_plan',
        message: expect.stringContaining(
          'rateLimit allows 5 requests per minute, but the service enforces 3',
        ),
        rateLimit: 5,
        planLimit: 3,
      },
    ]);
  });
});
