import { TelephonyClient, type WarningEvent } from 'telephony-sdk';
import { redisState } from 'telephony-sdk/redis';
import type { Sandbox } from 'telephony-sdk/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fleetSandboxes } from '../helpers/fleet-sandbox.js';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import { type ConnectedClient, closeRedisClients, redisClients } from '../helpers/redis-clients.js';
import { type SlowProxy, slowProxy } from '../helpers/slow-proxy.js';
import { type FleetProcess, forkFleetProcess } from './fleet-processes.js';
import type { CallOutcome, WorkerConfig, WorkerResult } from './fleet-worker.js';

// Issue 19: what a fault of the shared store, or a 429, costs a fleet. Each fleet is forked processes
// (fleet-worker.ts: a TelephonyClient imported as a user imports the SDK, `rateLimit` + `redisState`
// over its own connection) against one real redis-server and one sandbox on 127.0.0.1; the test
// starts each burst of calls (a line on the process's stdin) and causes the fault between bursts.
// Budgets are shown with maxRetryAfter 0: a call the budget would hold back is refused at once
// (`rate_budget_exhausted`, nothing sent), so a plan of 10 shows in milliseconds what a fleet would do
// over a minute; the sandbox's rateReport() says what reached the service. Real Redis faults need
// real time: each is held for at most 1.5 s.

const recent = { method: 'GET', path: '/v2/calls/recent' } as const;
const credentials = { clientId: 'app_faults', clientSecret: 'secret_faults' };
const WINDOW_KEY = 'telephony:{app_faults}:v2:window';

let server: RedisServer;
let raw: ConnectedClient;
const sandboxes = fleetSandboxes(credentials);
const serve = sandboxes.serve;
const proxies: SlowProxy[] = [];

beforeAll(async () => {
  server = await startRedis();
});
beforeEach(async () => {
  raw = await redisClients[0]![1](server);
  await raw.command('FLUSHALL');
});
afterEach(async () => {
  await sandboxes.closeAll();
  for (const proxy of proxies.splice(0)) await proxy.close();
  await closeRedisClients();
});
afterAll(stopAllRedis);

type Spec = Pick<WorkerConfig, 'calls' | 'maxRetryAfter'> &
  Partial<Pick<WorkerConfig, 'later' | 'timeout' | 'failWhileDisconnected' | 'every'>>;

/** Clients Redis holds back (`CLIENT PAUSE`, a blocking command), from `INFO clients`. */
function blockedClients(info: unknown): number {
  return Number(/blocked_clients:(\d+)/.exec(String(info))?.[1] ?? 0);
}

/**
 * Forks one process per spec, all on `driver`, paced for `plan` requests per minute, and resolves
 * once each is connected (its bursts then wait for `burst()`).
 */
async function fleet(
  driver: WorkerConfig['driver'],
  url: string,
  plan: number,
  specs: Spec[],
  redisUrl = server.url,
) {
  const processes = specs.map((spec) =>
    forkFleetProcess({
      driver,
      redisUrl,
      baseUrl: url,
      ...credentials,
      rateLimit: { requestsPerMinute: plan },
      ...spec,
    }),
  );
  await Promise.all(processes.map((member) => member.ready));
  return processes;
}

/** Runs the next burst of each process, at once; resolves with each call's 'ok' or error code, all processes together. */
async function burst(...processes: Array<[FleetProcess, number]>): Promise<string[]> {
  for (const [member] of processes) member.go();
  const outcomes = await Promise.all(processes.map(([member, index]) => member.done(index)));
  return outcomes.flat().map(outcome);
}

function outcome(call: CallOutcome): string {
  return call.ok ? 'ok' : (call.error?.code ?? call.error?.name ?? 'failed');
}

function count(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/** Every process's result, once all have exited (every call settled: none lost, none hung). */
const results = (processes: FleetProcess[]): Promise<WorkerResult[]> =>
  Promise.all(processes.map((member) => member.result()));

describe.each(['node-redis', 'ioredis'] as const)(
  'a fleet of forked processes through store faults (%s)',
  (driver) => {
    it('a slow store (every answer 1.1 s late) is waited for, not taken for a dead one: plan 4, 2 processes × 4 calls → 4 sent, 4 refused by the budget, 0 × 429, no shared_state_error', async () => {
      const { url, usage } = await serve(4);
      const proxy = await slowProxy(server, 0);
      proxies.push(proxy);
      const [a, b] = (await fleet(
        driver,
        url,
        4,
        [
          { calls: 4, maxRetryAfter: 0 },
          { calls: 4, maxRetryAfter: 0 },
        ],
        proxy.url,
      )) as [FleetProcess, FleetProcess];
      proxy.delayMs = 1_100;
      expect(count(await burst([a, 0], [b, 0]))).toEqual({ ok: 4, rate_budget_exhausted: 4 });
      // No process fell back to the whole plan: nothing over it reached the service.
      expect(usage()).toMatchObject({ counted: 4, rejected: 0 });
      for (const result of await results([a, b])) expect(result.stateErrors).toEqual([]);
    }, 90_000);

    it('restarted (SIGKILL, then empty on the same port) between two bursts: each process sees the window lost and keeps to its share (plan ÷ 2): 0 × 429, no call lost, its sends written back, the slots granted to refused calls given back', async () => {
      const { url, usage } = await serve(10);
      const [a, b] = (await fleet(driver, url, 10, [
        { calls: 1, later: [4, 5, 1], maxRetryAfter: 0 },
        { calls: 5, later: [5, 1], maxRetryAfter: 0 },
      ])) as [FleetProcess, FleetProcess];
      // a first, then b, then a again: by then both have seen the store count two processes.
      expect(count([...(await burst([a, 0])), ...(await burst([b, 0])), ...(await burst([a, 1]))])).toEqual({
        ok: 10,
      });
      await server.down('SIGKILL');
      await server.up();
      // Each has sent 5 of its share of 5 in this window: every call is refused before it is sent.
      expect(count(await burst([a, 2], [b, 1]))).toEqual({ rate_budget_exhausted: 10 });
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
      // The next reservation of each wrote its 5 sends back into the new window, and gave back the
      // slots the new store had granted the refused calls before the loss showed: 10, not 20.
      expect(count(await burst([a, 3], [b, 2]))).toEqual({ rate_budget_exhausted: 2 });
      expect(Number(await raw.command('ZCARD', WINDOW_KEY))).toBe(10);
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
      // Every call of every burst settled (none lost or hung), and the processes exited.
      expect((await results([a, b])).map((result) => result.outcomes.length)).toEqual([11, 11]);
    }, 90_000);

    it("SIGKILLed and restarted empty mid-run, demand above plan (4 processes, open loop, 40 calls at 20/min, one process over its share): the processes write back what the lost window held, so 0 × 429, 0 calls failed, no wait past maxRetryAfter, and one shared_state_error per process with the store's message", async () => {
      const plan = 20;
      const { url, usage } = await serve(plan);
      // Twice the plan over 4 s: the first window's 20 at once, the other 20 a window later (each
      // waits under 61 s, within maxRetryAfter 60 + the safety second). One process asks twice as
      // often as the others, so in each window it holds more than its share (20 ÷ 4).
      const fast: Spec = { calls: 16, every: 250, maxRetryAfter: 60 };
      const slow: Spec = { calls: 8, every: 500, maxRetryAfter: 60 };
      const processes = await fleet(driver, url, plan, [fast, slow, slow, slow]);
      for (const member of processes) member.go();
      // Mid-run, the window full: every process has sent, and holds slots in the next window.
      await Promise.all(processes.map((member) => member.called(5)));
      // Writes are held (CLIENT PAUSE) until every process has a reservation waiting: Redis dies with
      // them in flight, as a crash would find them.
      await raw.command('CLIENT', 'PAUSE', '30000', 'WRITE');
      await vi.waitFor(
        async () => expect(blockedClients(await raw.command('INFO', 'clients'))).toBeGreaterThanOrEqual(4),
        { timeout: 20_000, interval: 20 },
      );
      await server.down('SIGKILL');
      await server.up();
      const all = await results(processes);
      expect(count(all.flatMap((result) => result.outcomes).map(outcome))).toEqual({ ok: 40 });
      expect(usage()).toMatchObject({ counted: 40, rejected: 0 });
      expect(usage().maxInWindow).toBeLessThanOrEqual(plan);
      for (const result of all) {
        for (const throttle of result.throttles) expect(throttle.waitMs).toBeLessThanOrEqual(61_000);
        // One outage, reported once; ioredis sends what was in flight again after its reconnect, so
        // it may have nothing to report.
        expect(result.stateErrors.length).toBeLessThanOrEqual(1);
        for (const error of result.stateErrors) expect(error.message.trim()).not.toBe('');
      }
      if (driver === 'node-redis')
        expect(all.map((result) => result.stateErrors.length)).toEqual([1, 1, 1, 1]);
    }, 150_000);

    it('frozen (SIGSTOP) for 1.5 s with the window full: the calls wait for its answer (their own timeout, 10 s, bounds it), 0 × 429, no call lost, no shared_state_error', async () => {
      const { url, usage } = await serve(10);
      const spec: Spec = { calls: 5, later: [5], maxRetryAfter: 0, timeout: 10_000 };
      const [a, b] = (await fleet(driver, url, 10, [spec, spec])) as [FleetProcess, FleetProcess];
      expect(count(await burst([a, 0], [b, 0]))).toEqual({ ok: 10 });
      server.pause();
      let resumed = false;
      let settledWhileFrozen = 0;
      try {
        a.go();
        b.go();
        const second = [a, b].map((member) =>
          member.done(1).then((calls) => {
            if (!resumed) settledWhileFrozen++;
            return calls;
          }),
        );
        // Frozen for 1.5 s after both started their calls: past the fixed 1 s bound the store had before.
        await Promise.all([a.started(1), b.started(1)]);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        resumed = true;
        server.resume();
        expect(count((await Promise.all(second)).flat().map(outcome))).toEqual({ rate_budget_exhausted: 10 });
      } finally {
        if (!resumed) server.resume();
      }
      expect(settledWhileFrozen).toBe(0);
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
      for (const result of await results([a, b])) expect(result.stateErrors).toEqual([]);
    }, 90_000);

    it('down (connection refused, a Redis client that fails fast while disconnected): each process paces on its share of the plan (plan ÷ 2 live members), not the whole plan', async () => {
      const { url, usage } = await serve(10);
      const [a, b] = (await fleet(driver, url, 10, [
        { calls: 1, later: [2, 5], maxRetryAfter: 0, failWhileDisconnected: true },
        { calls: 3, later: [5], maxRetryAfter: 0, failWhileDisconnected: true },
      ])) as [FleetProcess, FleetProcess];
      expect(count([...(await burst([a, 0])), ...(await burst([b, 0])), ...(await burst([a, 1]))])).toEqual({
        ok: 6,
      });
      await server.down();
      try {
        // Share 10 ÷ 2 = 5, of which each has sent 3: 2 more each.
        expect(count(await burst([a, 2], [b, 1]))).toEqual({ ok: 4, rate_budget_exhausted: 6 });
      } finally {
        await server.up();
      }
      expect(usage()).toMatchObject({ counted: 10, rejected: 0 });
      for (const result of await results([a, b])) expect(result.stateErrors.length).toBeGreaterThanOrEqual(1);
    }, 90_000);

    it("a 429 costs its Retry-After, not a window: the service still counts a first burst the fleet's window no longer holds (as when it arrived late); 2 processes × 3 calls at 6/min meet 429 (Retry-After 3) and are all sent again within it, one slot per call", async () => {
      const { sandbox, url, usage } = await serve(6);
      // maxRetryAfter 10: a retry that had to wait for a slot behind the fleet's window (61 s) is refused at once.
      const [a, b] = (await fleet(driver, url, 6, [
        { calls: 3, maxRetryAfter: 10 },
        { calls: 3, maxRetryAfter: 10 },
      ])) as [FleetProcess, FleetProcess];
      // The first burst: 6 requests the service counted 57 s ago, which the fleet's window does not hold.
      const first = new TelephonyClient({ baseUrl: url, ...credentials, maxRetries: 0 });
      for (let i = 0; i < 6; i++) await first.request(recent);
      await sandbox.advance(57_000);
      expect(count(await burst([a, 0], [b, 0]))).toEqual({ ok: 6 });
      const retries = (await results([a, b])).flatMap((result) => result.retries);
      // At least the first request of the burst met the 429; the others met it or its pause.
      expect(retries.length).toBeGreaterThanOrEqual(1);
      for (const retry of retries) {
        expect(retry.reason).toBe('status 429');
        expect(retry.delayMs).toBeLessThanOrEqual(3_000);
      }
      expect(usage()).toMatchObject({ counted: 12, rejected: retries.length });
      // A retry sent in its refused attempt's slot: one slot per call.
      expect(Number(await raw.command('ZCARD', WINDOW_KEY))).toBe(6);
    }, 90_000);
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
    // The second five were sent a window after the first five left and met the late ones still in the
    // service's window (429, Retry-After 1): each 429'd call was sent again a second later, and a call
    // still asleep when the first 429 came waits for its pause rather than meeting one of its own; how
    // many were on the way by then is the machine's timing. Every 429 is one retry, and no more.
    expect(retries).toBeGreaterThanOrEqual(1);
    expect(retries).toBeLessThanOrEqual(5);
    expect(usage()).toMatchObject({ counted: 10, rejected: retries });
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
