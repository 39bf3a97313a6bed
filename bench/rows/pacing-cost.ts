/**
 * Issue 11's cost row: time per `client.request` over a stub fetch (no socket to the service) with no
 * pacing, with rateLimit in memory, and with rateLimit + redisState over a loopback redis-server
 * (node-redis and ioredis), beside bare Redis round trips on the same connections, all in one run.
 * Calls are awaited one after the other, so the figures are latency per call: the added time of
 * redisState is its one store round trip plus the client's work around it.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { startRedis } from '../../test/helpers/redis.js';
import { type Contender, compare } from '../harness.js';
import { BENCH_TOKEN } from '../peers.js';
import { fmt, goal, type RowResult } from '../report.js';
import type { SdkModule, SdkRedisModule } from '../sdk.js';

const BASE = 'http://127.0.0.1:9';
const recent = { method: 'GET', path: '/v2/calls/recent' } as const;
/** The in-memory limiter at its heaviest realistic load: the enterprise plan's window full. */
const ENTERPRISE = 2000;
/** A step between calls on the in-memory client's clock that keeps ~1 968 slots in its 61 s window, never waiting. */
const STEP_MS = 31;
/**
 * Redis paces on its own clock (TIME), so calls that follow each other in µs all sit in one window:
 * a budget no run of this row can reach keeps every reservation without a wait.
 */
const UNREACHABLE = 100_000_000;

const signed = (us: number) => `${us >= 0 ? '+' : '−'}${fmt(Math.abs(us), 1)} µs`;

export async function pacingCostRow(
  sdk: SdkModule | undefined,
  redisEntry: SdkRedisModule | undefined,
): Promise<RowResult> {
  const name = '11c. added time per call: rateLimit in memory and rateLimit + redisState over loopback';
  if (!sdk || !redisEntry) {
    return {
      row: name,
      command: 'npm run bench -- pacing-cost',
      table: [['contender']],
      goals: [goal('≤ 1 Redis round trip', null, 'telephony-sdk or telephony-sdk/redis not built yet')],
      notes: [],
    };
  }
  const body = JSON.stringify({
    status: 'success',
    data: { calls: [], pagination: { total: 0, limit: 20, offset: 0, has_more: false } },
  });
  const stubFetch: typeof fetch = async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  const options = { baseUrl: BASE, accessToken: BENCH_TOKEN, fetch: stubFetch };

  const server = await startRedis();
  const nodeRedis = createClient({ url: server.url });
  nodeRedis.on('error', () => {});
  await nodeRedis.connect();
  const ioredis = new Redis(server.url, { lazyConnect: true });
  ioredis.on('error', () => {});
  await ioredis.connect();
  try {
    // The in-memory client's own clock: each call 31 ms after the previous one, so its window holds
    // what an enterprise-plan client's holds at full rate. Nothing sleeps (no reservation waits).
    let fakeNow = Date.now();
    const steppedClock = { now: () => fakeNow, sleep: async () => {} };
    const plain = new sdk.TelephonyClient(options);
    const memory = new sdk.TelephonyClient({
      ...options,
      rateLimit: { requestsPerMinute: ENTERPRISE },
      clock: steppedClock,
    });
    const budget = { requestsPerMinute: UNREACHABLE };
    const nodeState = redisEntry.redisState(nodeRedis, { prefix: 'bench-cost-node:' });
    const ioState = redisEntry.redisState(ioredis, { prefix: 'bench-cost-io:' });
    const viaNode = new sdk.TelephonyClient({ ...options, rateLimit: budget, sharedState: nodeState });
    const viaIo = new sdk.TelephonyClient({ ...options, rateLimit: budget, sharedState: ioState });
    const pausesOnly = new sdk.TelephonyClient({ ...options, sharedState: nodeState });
    const rawBudget = { limit: UNREACHABLE, windowMs: 61_000 };

    const contenders: Contender[] = [
      { name: '(a) no pacing', run: () => plain.request(recent) },
      {
        name: `(b) rateLimit ${ENTERPRISE}/min in memory (window full)`,
        run: () => {
          fakeNow += STEP_MS;
          return memory.request(recent);
        },
      },
      { name: '(c) rateLimit + redisState, node-redis', run: () => viaNode.request(recent) },
      { name: "(c') rateLimit + redisState, ioredis", run: () => viaIo.request(recent) },
      { name: '(d) redisState without rateLimit, node-redis', run: () => pausesOnly.request(recent) },
      // The yardstick of the goal: (a) with exactly one bare round trip awaited in the same call.
      {
        name: '(a) + one PING, node-redis',
        run: async () => {
          await nodeRedis.sendCommand(['PING']);
          return plain.request(recent);
        },
      },
      {
        name: '(a) + one PING, ioredis',
        run: async () => {
          await ioredis.call('PING');
          return plain.request(recent);
        },
      },
      { name: 'node-redis PING', run: () => nodeRedis.sendCommand(['PING']) },
      { name: "node-redis EVAL 'return 1'", run: () => nodeRedis.sendCommand(['EVAL', 'return 1', '0']) },
      { name: 'node-redis redisState.reserve alone', run: () => nodeState.reserve('bench:v2', rawBudget, 0) },
      { name: 'ioredis PING', run: () => ioredis.call('PING') },
      { name: "ioredis EVAL 'return 1'", run: () => ioredis.call('EVAL', 'return 1', '0') },
      { name: 'ioredis redisState.reserve alone', run: () => ioState.reserve('bench:v2', rawBudget, 0) },
    ];
    const measured = await compare(contenders, { rounds: 11, runsPerRound: 400, warmupRuns: 300 });
    const us = (prefix: string) => measured.find((m) => m.name.startsWith(prefix))!.usPerOp;
    const floor = us('(a) no');
    const added = (prefix: string) => us(prefix) - floor;
    const clientRows = [
      '(a) no',
      '(b)',
      '(c)',
      "(c')",
      '(d)',
      '(a) + one PING, node-redis',
      '(a) + one PING, ioredis',
    ];
    const trip = (prefix: string) =>
      prefix.includes('ioredis') ? us('ioredis PING') : us('node-redis PING');

    const table = [
      ['contender', 'µs/call', 'added over (a)', 'added ÷ PING'],
      ...measured.map((m) => {
        const prefix = clientRows.find((p) => m.name.startsWith(p));
        if (prefix === undefined) return [m.name, fmt(m.usPerOp, 1), '', ''];
        const extra = added(prefix);
        return [
          m.name,
          fmt(m.usPerOp, 1),
          prefix === '(a) no' ? '' : signed(extra),
          prefix === '(a) no' || prefix === '(b)' ? '' : `${(extra / trip(prefix)).toFixed(2)}`,
        ];
      }),
    ];
    // Met when the paced call costs no more than the plain call with one bare round trip in it,
    // measured the same way in the same run (a round trip inside a call costs more than PING alone:
    // the call's own work is done between two waits on the socket).
    const check = (prefix: string, driver: 'node-redis' | 'ioredis', ping: number, evalTrip: number) => {
      const yardstick = added(`(a) + one PING, ${driver}`);
      return goal(
        `(c)−(a) ≤ 1 Redis round trip, ${driver}`,
        added(prefix) <= yardstick,
        `added ${signed(added(prefix))}; one PING inside the call adds ${signed(yardstick)}; bare PING ${fmt(ping, 1)} µs, bare EVAL 'return 1' ${fmt(evalTrip, 1)} µs, reserve alone ${fmt(us(`${driver} redisState.reserve`), 1)} µs`,
      );
    };
    return {
      row: name,
      command: 'npm run bench -- pacing-cost',
      table,
      goals: [
        check('(c)', 'node-redis', us('node-redis PING'), us("node-redis EVAL 'return 1'")),
        check("(c')", 'ioredis', us('ioredis PING'), us("ioredis EVAL 'return 1'")),
      ],
      notes: [
        'one process; client.request GET /v2/calls/recent over a stub fetch (an empty page, no socket to the service), static access token; calls awaited one after the other (latency per call), medians of 11 rounds × 400 calls, order rotated',
        `(b) paces in memory on a clock stepped ${STEP_MS} ms per call, so its window holds ~${Math.floor(61_000 / STEP_MS)} reserved slots as a full enterprise window does; it never waits`,
        `(c) and (c') pace in Redis on the server's clock with a budget of ${fmt(UNREACHABLE)} per minute, so no reservation waits: the cost measured is the store round trip (one EVAL) and the client's work around it`,
        "the goal's yardstick is '(a) + one PING': the plain call with one bare round trip awaited in it, as (c) awaits one EVAL; the bare round trips (PING, EVAL) are on the same loopback connections in the same run; the redis-server is a real one started for the row (test/helpers/redis.ts)",
        `in-memory pacing (b) adds ${signed(added('(b)'))}`,
      ],
    };
  } finally {
    nodeRedis.destroy();
    ioredis.disconnect();
    await server.stop();
  }
}
