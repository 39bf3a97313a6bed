/**
 * Issue 11's cost row: time per `client.request` over a stub fetch (no socket to the service) with no
 * pacing, with rateLimit in memory, and with rateLimit + redisState over a loopback redis-server
 * (node-redis and ioredis), beside the yardstick of the goal — the same plain call awaiting one bare
 * PING — and bare round trips on the same connections, all in one run.
 *
 * Each call is timed on its own and the contenders take turns call by call, so a burst of load on a
 * shared machine (other processes, the redis-server's own scheduling) hits them alike; the figure is
 * the median call, per round, then the median of the rounds.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { startRedis } from '../../test/helpers/redis.js';
import { median } from '../harness.js';
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
const ROUNDS = 7;
const CALLS_PER_ROUND = 1_000;
const WARMUP_CALLS = 500;

interface Contender {
  name: string;
  run: () => Promise<unknown>;
}

interface Sampled {
  name: string;
  /** Median call of each round, µs. */
  rounds: number[];
  /** Median of the rounds' medians, µs. */
  us: number;
}

/**
 * Times every call on its own, the contenders taking turns call by call in a new shuffled order each
 * time: work a call leaves behind (a driver's bookkeeping after a reply, garbage) lands in whichever
 * call comes next, so no contender may always follow the same one.
 */
async function sampleInterleaved(contenders: Contender[]): Promise<Sampled[]> {
  for (const contender of contenders) for (let i = 0; i < WARMUP_CALLS; i++) await contender.run();
  const random = seeded(11);
  const order = contenders.map((_, index) => index);
  const rounds = contenders.map((): number[] => []);
  const calls = contenders.map(() => new Float64Array(CALLS_PER_ROUND));
  for (let round = 0; round < ROUNDS; round++) {
    for (let call = 0; call < CALLS_PER_ROUND; call++) {
      shuffle(order, random);
      for (const index of order) {
        const started = performance.now();
        await contenders[index]!.run();
        calls[index]![call] = (performance.now() - started) * 1000;
      }
    }
    for (const [index, times] of calls.entries()) rounds[index]!.push(median(Array.from(times)));
  }
  return contenders.map(({ name }, index) => ({ name, rounds: rounds[index]!, us: median(rounds[index]!) }));
}

/** A small deterministic generator (mulberry32): the same order of turns in every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffle(items: number[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

const signed = (us: number) => `${us >= 0 ? '+' : '−'}${fmt(Math.abs(us), 1)} µs`;
const load = () => loadavg()[0]!.toFixed(2);

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
  // With a sharedState a static token needs an account (never derived from the token).
  const options = { baseUrl: BASE, accessToken: BENCH_TOKEN, account: 'bench', fetch: stubFetch };

  const server = await startRedis();
  const nodeRedis = createClient({ url: server.url });
  nodeRedis.on('error', () => {});
  await nodeRedis.connect();
  const ioredis = new Redis(server.url, { lazyConnect: true });
  ioredis.on('error', () => {});
  await ioredis.connect();
  const loadBefore = load();
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
    const pingNode = () => nodeRedis.sendCommand(['PING']);
    const pingIo = () => ioredis.call('PING');

    const sampled = await sampleInterleaved([
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
        name: '(e) (a) awaiting one PING, node-redis',
        run: async () => {
          await pingNode();
          return plain.request(recent);
        },
      },
      {
        name: "(e') (a) awaiting one PING, ioredis",
        run: async () => {
          await pingIo();
          return plain.request(recent);
        },
      },
      // What pacing must cost at least: (a) awaiting the one reserve round trip it makes (the same
      // EVALSHA, the script's work on the server included); (c) above it is the client's own work.
      {
        name: '(f) (a) awaiting one reserve, node-redis',
        run: async () => {
          await nodeState.reserve('bench:v2', rawBudget, 0);
          return plain.request(recent);
        },
      },
      {
        name: "(f') (a) awaiting one reserve, ioredis",
        run: async () => {
          await ioState.reserve('bench:v2', rawBudget, 0);
          return plain.request(recent);
        },
      },
      { name: 'PING, node-redis', run: pingNode },
      { name: 'PING, ioredis', run: pingIo },
      {
        name: 'redisState.reserve alone, node-redis',
        run: () => nodeState.reserve('bench:v2', rawBudget, 0),
      },
      { name: 'redisState.reserve alone, ioredis', run: () => ioState.reserve('bench:v2', rawBudget, 0) },
    ]);
    const loadAfter = load();
    const us = (prefix: string) => sampled.find((s) => s.name.startsWith(prefix))!.us;
    const added = (prefix: string) => us(prefix) - us('(a)');
    const driverOf = (contender: string) => (contender.includes('ioredis') ? "'" : '');

    const table = [
      ['contender', 'µs/call', 'rounds', 'added over (a)', '÷ (e): one PING', '÷ (f): one reserve'],
      ...sampled.map((s) => {
        const range = `${fmt(Math.min(...s.rounds), 0)}–${fmt(Math.max(...s.rounds), 0)}`;
        const client = /^\([a-f]'?\)/.exec(s.name)?.[0];
        if (client === undefined || client === '(a)') return [s.name, fmt(s.us, 1), range, '', '', ''];
        const extra = added(client);
        const paced = client.startsWith('(c') || client.startsWith('(d');
        const over = (yardstick: string) =>
          paced ? (extra / added(`${yardstick}${driverOf(s.name)})`)).toFixed(2) : '';
        return [s.name, fmt(s.us, 1), range, signed(extra), over('(e'), over('(f')];
      }),
    ];
    // Met when pacing adds no more than one bare round trip does at the same place in a call,
    // measured the same way in the same run (a round trip inside a call costs more than a PING
    // alone: the call's own work is done between two waits on the socket).
    const check = (paced: '(c)' | "(c')", yardstick: '(e)' | "(e')", driver: 'node-redis' | 'ioredis') =>
      goal(
        `${paced}−(a) ≤ 1 Redis round trip, ${driver}`,
        added(paced) <= added(yardstick),
        `pacing adds ${signed(added(paced))}; one PING awaited in the call adds ${signed(added(yardstick))}, one reserve awaited in it ${signed(added(yardstick.replace('e', 'f')))}; bare PING ${fmt(us(`PING, ${driver}`), 1)} µs, reserve alone ${fmt(us(`redisState.reserve alone, ${driver}`), 1)} µs; load ${loadBefore} → ${loadAfter}`,
      );
    return {
      row: name,
      command: 'npm run bench -- pacing-cost',
      table,
      goals: [check('(c)', '(e)', 'node-redis'), check("(c')", "(e')", 'ioredis')],
      notes: [
        `one process; client.request GET /v2/calls/recent over a stub fetch (an empty page, no socket to the service), static access token; every call timed on its own, the ${sampled.length} contenders taking turns call by call in a shuffled order; µs/call is the median of ${ROUNDS} rounds' median calls (${CALLS_PER_ROUND} calls each, after ${WARMUP_CALLS} untimed), 'rounds' their range`,
        `1-minute load average ${loadBefore} at the start, ${loadAfter} at the end (the machine's other work shares its cores with the client and the redis-server)`,
        `(b) paces in memory on a clock stepped ${STEP_MS} ms per call, so its window holds ~${Math.floor(61_000 / STEP_MS)} reserved slots as a full enterprise window does; it never waits`,
        `(c) and (c') pace in Redis on the server's clock with a budget of ${fmt(UNREACHABLE)} per minute, so no reservation waits: the cost measured is the store round trip (one EVALSHA of the reserve script) and the client's work around it`,
        "the goal's yardstick is (e)/(e'): the plain call with one bare round trip (PING) awaited in it, as (c) awaits one EVALSHA; (f)/(f') await the very reserve round trip pacing makes, so (c) ÷ (f) near 1 means pacing adds that one round trip and nothing more, and (f) above (e) is the reserve script's own work on the server (11–30 µs by INFO commandstats on Redis 7.0, idle to loaded, against ~0.1 µs for PING) and its larger command and reply; the redis-server is a real one started for the row (test/helpers/redis.ts)",
        `in-memory pacing (b) adds ${signed(added('(b)'))}`,
      ],
    };
  } finally {
    nodeRedis.destroy();
    ioredis.disconnect();
    await server.stop();
  }
}
