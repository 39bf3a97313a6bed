/**
 * Issue 11's fleet rows, over real HTTP and real processes: a real-time sandbox served on 127.0.0.1
 * and a real redis-server (test/helpers/redis.ts) in this process, and forked processes
 * (bench/fleet-worker.ts) each running a TelephonyClient from ./dist with its own Redis connection
 * (node-redis and ioredis alternately). The sandbox's rateReport() is the server-side truth: what it
 * counted, answered 429, the largest 60 s window and the tokens it issued.
 *
 * - Goodput under the plan: PROCESSES × CALLS calls on one application at RATE per minute, paced by
 *   rateLimit + redisState, beside the same fleet retry-only (no rateLimit, no sharedState, default
 *   maxRetries 2 and maxRetryAfter 60 s, as openai-node and the client before issue 11 behave).
 * - Cold fleet: PROCESSES × COLD_CALLS concurrent calls on a cold token cache, with redisState (goal:
 *   exactly one token request) beside the same fleet without a sharedState.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startRedis } from '../../test/helpers/redis.js';
import type { FleetWorkerConfig, FleetWorkerMessage, FleetWorkerResult } from '../fleet-worker.js';
import { fmt, goal, type RowResult } from '../report.js';
import type { SdkRateUsage, SdkTestingModule } from '../sdk.js';

const PROCESSES = 4;
const CALLS = 300;
/** The plan's rate: 1 200 calls ÷ 600 per minute = 2 minutes by the measure (see the notes). */
const RATE = 600;
/** Calls in flight per process. */
const CONCURRENCY = 50;
const COLD_CALLS = 50;
/** No call of a fleet starts after this (from go); the retry-only fleet is the one that may need it. */
const DEADLINE_MS = 150_000;
/** Forked processes must connect and report ready within this; results must come within deadline + this. */
const GRACE_MS = 30_000;
const SECRET = 'bench-fleet-secret';

const workerPath = fileURLToPath(new URL('../fleet-worker.ts', import.meta.url));
const drivers: FleetWorkerConfig['driver'][] = ['node-redis', 'ioredis'];

export interface FleetRun {
  wallMs: number;
  results: FleetWorkerResult[];
  usage: SdkRateUsage;
}

export type FleetSpec = Omit<FleetWorkerConfig, 'driver' | 'clientSecret' | 'deadlineMs'> & {
  shared: boolean;
};

/** How a fleet is run beyond its spec (issue 19's fault rows). */
export interface FleetOptions {
  /** The Redis library of every process (default: node-redis and ioredis alternately). */
  driver?: FleetWorkerConfig['driver'];
  /** Environment of the processes (TELEPHONY_SDK_DIST: which build they run). */
  env?: NodeJS.ProcessEnv;
  /** Runs once the processes have started (a fault to inject); awaited before the results. */
  during?: () => Promise<void>;
  /** How long a process may take to report ready (default GRACE_MS; a loaded machine needs more). */
  readyMs?: number;
}

/** Forks the fleet, starts every process at once, waits for every result (bounded), kills stragglers. */
export async function runFleet(
  spec: FleetSpec,
  usage: () => SdkRateUsage,
  options: FleetOptions = {},
): Promise<FleetRun> {
  const children: ChildProcess[] = [];
  const waitFor = (child: ChildProcess, type: FleetWorkerMessage['type'], ms: number) =>
    new Promise<FleetWorkerMessage>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fleet worker ${child.pid}: no ${type} in ${ms} ms`)),
        ms,
      );
      const onMessage = (message: FleetWorkerMessage) => {
        if (message.type !== type) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`fleet worker ${child.pid} exited (${code}) before ${type}`));
      });
    });
  try {
    const ready: Promise<FleetWorkerMessage>[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const config: FleetWorkerConfig = {
        ...spec,
        driver: spec.shared ? (options.driver ?? drivers[i % drivers.length]!) : 'none',
        clientSecret: SECRET,
        deadlineMs: DEADLINE_MS,
      };
      const child = fork(workerPath, [JSON.stringify(config)], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        ...(options.env === undefined ? {} : { env: options.env }),
      });
      children.push(child);
      ready.push(waitFor(child, 'ready', options.readyMs ?? GRACE_MS));
    }
    await Promise.all(ready);
    const done = children.map((child) => waitFor(child, 'done', DEADLINE_MS + GRACE_MS));
    const start = performance.now();
    for (const child of children) child.send({ type: 'go' });
    await options.during?.();
    const results = (await Promise.all(done)).map(
      (message) => (message.type === 'done' ? message.result : undefined)!,
    );
    const wallMs = performance.now() - start;
    return { wallMs, results, usage: usage() };
  } finally {
    // Each child exits by itself after its result; one that did not is ended here (only our own).
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

export const sum = (run: FleetRun, pick: (r: FleetWorkerResult) => number) =>
  run.results.reduce((total, r) => total + pick(r), 0);

export function errorsOf(run: FleetRun): string {
  const merged: Record<string, number> = {};
  for (const r of run.results)
    for (const [k, n] of Object.entries(r.errors)) merged[k] = (merged[k] ?? 0) + n;
  const text = Object.entries(merged)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return text || 'none';
}

export async function fleetRows(testing: SdkTestingModule | undefined): Promise<RowResult[]> {
  const goodputName = `11a. goodput under the plan: ${PROCESSES} processes × ${CALLS} calls at ${RATE}/min over real HTTP`;
  const coldName = `11b. cold fleet: ${PROCESSES} processes × ${COLD_CALLS} concurrent calls, cold token cache`;
  if (!testing) {
    const missing = goal('measured', null, 'telephony-sdk/testing not built yet');
    return [
      {
        row: goodputName,
        command: 'npm run bench -- fleet',
        table: [['contender']],
        goals: [missing],
        notes: [],
      },
      {
        row: coldName,
        command: 'npm run bench -- fleet',
        table: [['contender']],
        goals: [missing],
        notes: [],
      },
    ];
  }
  const plan = { requestsPerMinute: RATE };
  const coldPlan = { requestsPerMinute: 1000 };
  const apps = {
    paced: 'app_paced',
    retry: 'app_retry_only',
    coldShared: 'app_cold_redis',
    coldLocal: 'app_cold_memory',
  };
  const sandbox = testing.createSandbox({
    clients: [
      { clientId: apps.paced, clientSecret: SECRET, plan },
      { clientId: apps.retry, clientSecret: SECRET, plan },
      { clientId: apps.coldShared, clientSecret: SECRET, plan: coldPlan },
      { clientId: apps.coldLocal, clientSecret: SECRET, plan: coldPlan },
    ],
    clock: { mode: 'realtime' },
  });
  const redis = await startRedis();
  const server = await sandbox.listen();
  const usageOf = (id: string) => () => sandbox.rateReport().find((u) => u.version === 'v2' && u.id === id)!;
  const base = { redisUrl: redis.url, baseUrl: server.url, concurrency: CONCURRENCY };
  try {
    // One after the other: each fleet has the machine (and its own application's budget) to itself.
    const paced = await runFleet(
      { ...base, prefix: 'bench-paced:', clientId: apps.paced, calls: CALLS, rateLimit: plan, shared: true },
      usageOf(apps.paced),
    );
    const retryOnly = await runFleet(
      {
        ...base,
        prefix: 'bench-retry:',
        clientId: apps.retry,
        calls: CALLS,
        rateLimit: false,
        shared: false,
      },
      usageOf(apps.retry),
    );
    const coldShared = await runFleet(
      {
        ...base,
        prefix: 'bench-cold:',
        clientId: apps.coldShared,
        calls: COLD_CALLS,
        concurrency: COLD_CALLS,
        rateLimit: coldPlan,
        shared: true,
      },
      usageOf(apps.coldShared),
    );
    const coldLocal = await runFleet(
      {
        ...base,
        prefix: 'bench-cold-local:',
        clientId: apps.coldLocal,
        calls: COLD_CALLS,
        concurrency: COLD_CALLS,
        rateLimit: coldPlan,
        shared: false,
      },
      usageOf(apps.coldLocal),
    );
    return [goodputRow(goodputName, paced, retryOnly), coldRow(coldName, coldShared, coldLocal)];
  } finally {
    await server.close();
    sandbox.close();
    await redis.stop();
  }
}

function goodputRow(name: string, paced: FleetRun, retryOnly: FleetRun): RowResult {
  const total = PROCESSES * CALLS;
  const minimumMs = (total / RATE) * 60_000;
  // What a sliding 60 s window allows at best: RATE at once, then RATE more each window.
  const windowFloorMs = (Math.ceil(total / RATE) - 1) * 60_000;
  const line = (label: string, run: FleetRun) => [
    label,
    fmt(run.wallMs / 1000, 1),
    `${(run.wallMs / minimumMs).toFixed(2)}×`,
    `${sum(run, (r) => r.ok)}/${total}`,
    String(sum(run, (r) => r.failed) + sum(run, (r) => r.cut)),
    String(run.usage.rejected),
    `${run.usage.maxInWindow}/${run.usage.limit}`,
    String(run.usage.tokensIssued),
    String(sum(run, (r) => r.retries)),
    String(sum(run, (r) => r.throttles.pacing + r.throttles.paused)),
  ];
  const pacedOk = sum(paced, (r) => r.ok) === total;
  return {
    row: name,
    command: 'npm run bench -- fleet',
    table: [
      [
        'contender',
        'wall s',
        'vs calls÷rate',
        'ok',
        'failed',
        '429s (server)',
        'max 60 s window',
        'token requests',
        'retries',
        'throttled calls',
      ],
      line('rateLimit + redisState (node-redis, ioredis)', paced),
      line('retry-only: no rateLimit, no sharedState', retryOnly),
    ],
    goals: [
      goal(
        `wall time ≤ 1.05 × calls ÷ rate (${fmt((1.05 * minimumMs) / 1000, 1)} s)`,
        pacedOk && paced.wallMs <= 1.05 * minimumMs,
        `${fmt(paced.wallMs / 1000, 1)} s = ${(paced.wallMs / minimumMs).toFixed(2)}× of ${fmt(minimumMs / 1000)} s; ${fmt(paced.wallMs / windowFloorMs, 3)}× the sliding-window floor (${fmt(windowFloorMs / 1000)} s)`,
      ),
      goal(
        '0 responses 429',
        paced.usage.rejected === 0,
        `${paced.usage.rejected} answered 429 by the sandbox`,
      ),
      goal(
        'server-side largest 60 s window ≤ the plan',
        paced.usage.maxInWindow <= paced.usage.limit,
        `${paced.usage.maxInWindow} of ${paced.usage.limit}`,
      ),
    ],
    notes: [
      `${PROCESSES} forked processes × ${CALLS} calls (GET /v2/calls/recent), ${CONCURRENCY} in flight per process, one sandbox application at ${RATE} requests per minute; fleets run one after the other in this run, each on its own application`,
      `calls ÷ rate = ${total} ÷ ${RATE}/min = ${fmt(minimumMs / 1000)} s. A sliding window lets the plan's ${RATE} go at once and ${RATE} more a window later, so ${total} calls can finish after ${Math.ceil(total / RATE) - 1} window(s) (${fmt(windowFloorMs / 1000)} s, ${fmt(windowFloorMs / 1000 + Math.ceil(total / RATE) - 1)} s with the client's 61 s window): below calls ÷ rate whenever the calls fit in a few windows' budget`,
      `paced fleet: 'token' events per process ${paced.results.map((r) => r.tokens).join(', ')} (token endpoint answers ${paced.results.map((r) => JSON.stringify(r.tokenResponses)).join(', ')}); ${sum(paced, (r) => r.attempts)} attempts, ${sum(paced, (r) => r.throttles.pacing)} pacing waits (longest ${fmt(Math.max(...paced.results.map((r) => r.throttles.maxWaitMs)) / 1000, 1)} s), ${sum(paced, (r) => r.stateErrors)} shared_state_error, errors: ${errorsOf(paced)}`,
      `retry-only fleet: ${sum(retryOnly, (r) => r.attempts)} attempts, ${sum(retryOnly, (r) => r.responses429)} answered 429, ${sum(retryOnly, (r) => r.throttles.paused)} calls held by a 429 pause, ${sum(retryOnly, (r) => r.cut)} cut at the ${DEADLINE_MS / 1000} s bound, errors: ${errorsOf(retryOnly)}`,
    ],
  };
}

function coldRow(name: string, shared: FleetRun, local: FleetRun): RowResult {
  const total = PROCESSES * COLD_CALLS;
  const line = (label: string, run: FleetRun) => [
    label,
    String(run.usage.tokensIssued),
    `${sum(run, (r) => r.ok)}/${total}`,
    String(sum(run, (r) => r.failed) + sum(run, (r) => r.cut)),
    String(run.usage.rejected),
    fmt(run.wallMs, 0),
  ];
  return {
    row: name,
    command: 'npm run bench -- fleet',
    table: [
      ['contender', 'token requests', 'ok', 'failed', '429s', 'wall ms'],
      line('redisState (node-redis, ioredis)', shared),
      line('no sharedState (each process its own)', local),
    ],
    goals: [
      goal(
        'exactly 1 token request',
        shared.usage.tokensIssued === 1 && sum(shared, (r) => r.ok) === total,
        `${shared.usage.tokensIssued} token request(s) issued by the sandbox, ${sum(shared, (r) => r.ok)}/${total} calls ok, errors: ${errorsOf(shared)}`,
      ),
    ],
    notes: [
      `every process connects, builds its client, then all start at once; ${COLD_CALLS} calls in flight per process, rateLimit ${1000}/min (not reached); tokens counted by the sandbox (tokensIssued), 'token' events in the processes: ${sum(shared, (r) => r.tokens)} with redisState (per process ${shared.results.map((r) => r.tokens).join(', ')}), ${sum(local, (r) => r.tokens)} without`,
      "with redisState the processes that do not hold the token lock look for the stored token every 100 ms (up to ~100 ms more before their first call); wall ms includes every process's 50 calls",
    ],
  };
}
