/**
 * Issue 19's rows: what load and faults cost a fleet, this build beside the baseline build
 * (TELEPHONY_SDK_BASELINE_DIST, an earlier commit's dist) in the same run. Each fleet is 4 forked
 * processes (bench/fleet-worker.ts) × 150 calls, 10 in flight each, on one sandbox application at
 * 300 requests per minute over real HTTP, `rateLimit` + `redisState` on one real redis-server; the
 * sandbox (in this process) counts what reached it. The sliding-window floor of 600 calls at
 * 300/min is one window (60 s): the first 300 at once, the next 300 a window later.
 *
 * - Loaded: two CPU burners (busy child processes) beside the fleet, node-redis and ioredis.
 * - Faults (node-redis, no burners): Redis SIGKILLed and restarted empty at 58 s (just before the
 *   second window's sends), Redis SIGSTOPped 58–63 s, and a store whose every answer is held 1.1 s
 *   (a TCP proxy in front of it).
 * - Restart (19c): the same fleet (demand twice the plan) without a fault and with Redis SIGKILLed and
 *   restarted empty at 58 s, taking turns, RESTART_RUNS times (BENCH_RESTART_RUNS, default 3): time of
 *   each faulted run against the no-fault run beside it, 429s, failed calls, the longest wait.
 * - BENCH_FAULTS=restart (or loaded, faults, comma-separated) runs only those parts of row 19.
 * - Late: one client, 10 calls at 5/min, its first five requests reach the sandbox 1.5 s late.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { type RedisServer, startRedis } from '../../test/helpers/redis.js';
import { slowProxy } from '../../test/helpers/slow-proxy.js';
import type { FleetWorkerConfig } from '../fleet-worker.js';
import { median } from '../harness.js';
import { fmt, goal, type RowResult } from '../report.js';
import type { SdkModule, SdkTestingModule } from '../sdk.js';
import { errorsOf, type FleetRun, runFleet, sum } from './fleet.js';

const PROCESSES = 4;
const CALLS = 150;
const RATE = 300;
const CONCURRENCY = 10;
const FLOOR_MS = 60_000;
/** Runs per driver of the loaded fleet (BENCH_FAULT_RUNS, default 1: each costs a minute a build). */
const RUNS = Number(process.env.BENCH_FAULT_RUNS ?? 1);
const FAULT_AT_MS = 58_000;
/** No-fault and restart runs of row 19c, taking turns (BENCH_RESTART_RUNS, default 3). */
const RESTART_RUNS = Number(process.env.BENCH_RESTART_RUNS ?? 3);
/** Parts of row 19 to run (BENCH_FAULTS, comma-separated: loaded, faults, restart); default all. */
const PARTS = new Set((process.env.BENCH_FAULTS ?? 'loaded,faults,restart').split(','));
const SECRET = 'bench-fleet-secret';

interface Build {
  label: string;
  /** dist directory the processes load; undefined: ./dist. */
  dir: string | undefined;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Two busy processes, the load any real host has beside its workers: started with the calls. */
function burners(): ChildProcess[] {
  return [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

type Fault = 'none' | 'load' | 'kill' | 'stop' | 'slow';

export async function fleetFaultRows(
  testing: SdkTestingModule | undefined,
  current: SdkModule | undefined,
  baseline: SdkModule | undefined,
): Promise<RowResult[]> {
  const name = `19. a fleet under load and faults: ${PROCESSES} processes × ${CALLS} calls at ${RATE}/min, ${CONCURRENCY} in flight each`;
  const lateName = '19b. a late request: 10 calls at 5/min, the first five 1.5 s late';
  const restartName = `19c. SIGKILL + empty restart, demand above plan: ${PROCESSES} processes × ${CALLS} calls at ${RATE}/min, Redis killed at ${FAULT_AT_MS / 1000} s`;
  if (!testing || !current) {
    const missing = goal('measured', null, 'dist/ not built yet');
    return [name, lateName, restartName].map((row) => ({
      row,
      command: 'npm run bench -- fleet-faults',
      table: [['contender']],
      goals: [missing],
      notes: [],
    }));
  }
  const builds: Build[] = [{ label: 'this build', dir: undefined }];
  const baselineDir = process.env.TELEPHONY_SDK_BASELINE_DIST;
  if (baseline && baselineDir) builds.unshift({ label: 'baseline', dir: baselineDir });

  const plan = { requestsPerMinute: RATE };
  let app = 0;
  const apps = Array.from({ length: 64 + 4 * RESTART_RUNS }, () => `app_fault_${app++}`);
  const sandbox = testing.createSandbox({
    clients: [
      ...apps.map((clientId) => ({ clientId, clientSecret: SECRET, plan })),
      ...builds.map((_, i) => ({
        clientId: `app_late_${i}`,
        clientSecret: SECRET,
        plan: { requestsPerMinute: 5 },
      })),
    ],
    clock: { mode: 'realtime' },
  });
  const server = await sandbox.listen();
  const usageOf = (id: string) => () => sandbox.rateReport().find((u) => u.version === 'v2' && u.id === id)!;
  // The late client runs beside everything else: it waits most of its two minutes.
  const late = Promise.all(
    builds.map(async (build, i) =>
      lateRun(
        build.dir === undefined ? current : baseline!,
        server.url,
        `app_late_${i}`,
        usageOf(`app_late_${i}`),
      ),
    ),
  );
  let next = 0;
  const fleet = async (build: Build, driver: FleetWorkerConfig['driver'], fault: Fault) => {
    const redis = await startRedis();
    const proxy = fault === 'slow' ? await slowProxy(redis, 1_100) : undefined;
    const clientId = apps[next++]!;
    const busy: ChildProcess[] = [];
    try {
      const during = async () => {
        if (fault === 'load') busy.push(...burners());
        if (fault !== 'kill' && fault !== 'stop') return;
        await delay(FAULT_AT_MS);
        await inject(redis, fault);
      };
      return await runFleet(
        {
          redisUrl: proxy?.url ?? redis.url,
          baseUrl: server.url,
          concurrency: CONCURRENCY,
          prefix: 'bench-faults:',
          clientId,
          calls: CALLS,
          rateLimit: plan,
          shared: true,
        },
        usageOf(clientId),
        {
          driver,
          during,
          readyMs: 120_000,
          env: build.dir === undefined ? process.env : { ...process.env, TELEPHONY_SDK_DIST: build.dir },
        },
      );
    } finally {
      for (const burner of busy) burner.kill('SIGKILL');
      await proxy?.close();
      await redis.stop();
    }
  };

  const lines: string[][] = [];
  const goals = [];
  const notes: string[] = [];
  const restartLines: string[][] = [];
  const restartGoals = [];
  try {
    for (const build of builds) {
      if (!PARTS.has('restart')) break;
      const pairs: Array<[FleetRun, FleetRun]> = [];
      for (let run = 0; run < RESTART_RUNS; run++) {
        const calm = await fleet(build, 'node-redis', 'none');
        const killed = await fleet(build, 'node-redis', 'kill');
        pairs.push([calm, killed]);
        restartLines.push(restartLine(build.label, run, 'no fault', calm, calm));
        restartLines.push(restartLine(build.label, run, 'SIGKILL + empty restart', killed, calm));
      }
      if (build.dir !== undefined) continue;
      const ratios = pairs.map(([calm, killed]) => killed.wallMs / calm.wallMs);
      const waits = pairs.map(([, killed]) => maxWait(killed));
      restartGoals.push(
        goal(
          `restart: median time ≤ 1.15× the no-fault run beside it (${RESTART_RUNS} runs)`,
          median(ratios) <= 1.15,
          `median ${median(ratios).toFixed(3)}× (${ratios.map((r) => `${r.toFixed(3)}×`).join(', ')})`,
        ),
        goal(
          'restart: 0 × 429, 0 calls failed, no wait past maxRetryAfter (60 s + the safety second), every run',
          pairs.every(([, k]) => k.usage.rejected === 0 && complete(k) && maxWait(k) <= 61_000),
          `429s ${pairs.map(([, k]) => k.usage.rejected).join(', ')}; failed ${pairs.map(([, k]) => sum(k, (r) => r.failed)).join(', ')}; longest wait ${waits.map((w) => fmt(w / 1000, 1)).join(', ')} s`,
        ),
      );
    }
    for (const build of builds) {
      const loaded: FleetRun[] = [];
      for (let run = 0; run < (PARTS.has('loaded') ? RUNS : 0); run++)
        for (const driver of ['node-redis', 'ioredis'] as const) {
          const result = await fleet(build, driver, 'load');
          loaded.push(result);
          lines.push(line(build.label, `loaded, ${driver}`, result));
        }
      const faults: Array<[Fault, string]> = [
        ['kill', `Redis SIGKILL + restart at ${FAULT_AT_MS / 1000} s`],
        ['stop', `Redis SIGSTOP ${FAULT_AT_MS / 1000}–${FAULT_AT_MS / 1000 + 5} s`],
        ['slow', 'every store answer 1.1 s late'],
      ];
      const faulted: Array<[string, FleetRun]> = [];
      for (const [fault, label] of PARTS.has('faults') ? faults : []) {
        const result = await fleet(build, 'node-redis', fault);
        faulted.push([label, result]);
        lines.push(line(build.label, label, result));
      }
      if (build.dir !== undefined || loaded.length === 0 || faulted.length === 0) continue;
      const worst = Math.max(...loaded.map((r) => r.wallMs));
      goals.push(
        goal(
          'loaded: 0 × 429 and ≤ 1.10× the sliding-window floor, every run',
          loaded.every((r) => r.usage.rejected === 0 && r.wallMs <= 1.1 * FLOOR_MS && complete(r)),
          `429s ${loaded.map((r) => r.usage.rejected).join(', ')}; ${loaded.map((r) => `${(r.wallMs / FLOOR_MS).toFixed(3)}×`).join(', ')} (worst ${fmt(worst / 1000, 1)} s)`,
        ),
      );
      const [kill, stop, slow] = faulted.map(([, r]) => r) as [FleetRun, FleetRun, FleetRun];
      goals.push(
        goal(
          'SIGKILL + restart ≤ 20 × 429, no call lost',
          kill.usage.rejected <= 20 && complete(kill),
          summary(kill),
        ),
        goal(
          'SIGSTOP 5 s ≤ 10 × 429, no call lost',
          stop.usage.rejected <= 10 && complete(stop),
          summary(stop),
        ),
        goal(
          'slow store (1.1 s answers) 0 × 429, no call lost',
          slow.usage.rejected === 0 && complete(slow),
          summary(slow),
        ),
      );
    }
    const lateRuns = await late;
    const lateRow: RowResult = {
      row: lateName,
      command: 'npm run bench -- fleet-faults',
      table: [
        ['contender', 'wall s', 'ok', '429s (server)', 'retries'],
        ...lateRuns.map((r, i) => [
          builds[i]!.label,
          fmt(r.wallMs / 1000, 1),
          `${r.ok}/10`,
          String(r.rejected),
          String(r.retries),
        ]),
      ],
      goals: [
        goal(
          '≤ 66 s, every call answered',
          lateRuns.at(-1)!.wallMs <= 66_000 && lateRuns.at(-1)!.ok === 10,
          `${fmt(lateRuns.at(-1)!.wallMs / 1000, 1)} s`,
        ),
      ],
      notes: [
        "one in-process client, rateLimit 5/min, memory state, maxRetryAfter 300; a fetch wrapper holds the first five requests 1.5 s before they leave (they are counted 1.5 s after the client's slot)",
      ],
    };
    notes.push(
      `${PROCESSES} forked processes × ${CALLS} calls (GET /v2/calls/recent), ${CONCURRENCY} in flight per process, all on one driver; one redis-server per fleet; fleets run one after the other; loaded: ${RUNS} run(s) per driver with two busy processes beside the fleet; faults with node-redis (offline queue on: commands sent while Redis is away wait for the reconnect)`,
      `sliding-window floor: ${FLOOR_MS / 1000} s (the first ${RATE} at once, the rest a window later); this build's client window is 61 s`,
    );
    return [
      {
        row: name,
        command: 'npm run bench -- fleet-faults',
        table: [
          [
            'build',
            'fleet',
            'wall s',
            'vs floor',
            'ok',
            'failed/cut',
            '429s (server)',
            'max 60 s window',
            'state errors',
            'errors',
          ],
          ...lines,
        ],
        goals,
        notes,
      },
      lateRow,
      {
        row: restartName,
        command: 'BENCH_FAULTS=restart npm run bench -- fleet-faults',
        table: [
          [
            'build',
            'run',
            'fleet',
            'wall s',
            'vs no fault',
            'ok',
            'failed/cut',
            '429s (server)',
            'longest wait s',
            'state errors',
            'errors',
          ],
          ...restartLines,
        ],
        goals: restartGoals,
        notes: [
          `node-redis (offline queue on), each run one no-fault fleet then one whose redis-server is SIGKILLed at ${FAULT_AT_MS / 1000} s and started again empty on the same port; the ratio is against the no-fault run just before it; longest wait: the largest 'throttle' wait of any call`,
        ],
      },
    ];
  } finally {
    await server.close();
    sandbox.close();
  }
}

function complete(run: FleetRun): boolean {
  return sum(run, (r) => r.ok) === PROCESSES * CALLS;
}

function summary(run: FleetRun): string {
  return `${run.usage.rejected} × 429, ${sum(run, (r) => r.ok)}/${PROCESSES * CALLS} ok, ${fmt(run.wallMs / 1000, 1)} s = ${(run.wallMs / FLOOR_MS).toFixed(3)}× the floor`;
}

function line(build: string, fleet: string, run: FleetRun): string[] {
  return [
    build,
    fleet,
    fmt(run.wallMs / 1000, 1),
    `${(run.wallMs / FLOOR_MS).toFixed(3)}×`,
    `${sum(run, (r) => r.ok)}/${PROCESSES * CALLS}`,
    `${sum(run, (r) => r.failed)}/${sum(run, (r) => r.cut)}`,
    String(run.usage.rejected),
    `${run.usage.maxInWindow}/${run.usage.limit}`,
    String(sum(run, (r) => r.stateErrors)),
    errorsOf(run),
  ];
}

function restartLine(build: string, run: number, fleet: string, result: FleetRun, calm: FleetRun): string[] {
  return [
    build,
    String(run + 1),
    fleet,
    fmt(result.wallMs / 1000, 1),
    `${(result.wallMs / calm.wallMs).toFixed(3)}×`,
    `${sum(result, (r) => r.ok)}/${PROCESSES * CALLS}`,
    `${sum(result, (r) => r.failed)}/${sum(result, (r) => r.cut)}`,
    String(result.usage.rejected),
    fmt(maxWait(result) / 1000, 1),
    String(sum(result, (r) => r.stateErrors)),
    errorsOf(result),
  ];
}

const maxWait = (run: FleetRun) => Math.max(0, ...run.results.map((r) => r.throttles.maxWaitMs));

async function inject(redis: RedisServer, fault: 'kill' | 'stop'): Promise<void> {
  if (fault === 'stop') {
    redis.pause();
    await delay(5_000);
    redis.resume();
    return;
  }
  // A crash: no graceful close of the connections; persistence is off, so every key is lost.
  await redis.down('SIGKILL');
  await redis.up();
}

async function lateRun(
  sdk: SdkModule,
  baseUrl: string,
  clientId: string,
  usage: () => { rejected: number },
): Promise<{ wallMs: number; ok: number; rejected: number; retries: number }> {
  let sent = 0;
  const client = new sdk.TelephonyClient({
    baseUrl,
    clientId,
    clientSecret: SECRET,
    rateLimit: { requestsPerMinute: 5 },
    maxRetryAfter: 300,
    fetch: async (input: Request, init?: RequestInit) => {
      if (!input.url.includes('/oauth/') && sent++ < 5) await delay(1_500);
      return fetch(input, init);
    },
  }) as {
    request: (spec: { method: 'GET'; path: string }) => Promise<unknown>;
    on?: (e: string, l: () => void) => void;
  };
  let retries = 0;
  client.on?.('retry', () => retries++);
  const start = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: 10 }, () =>
      client.request({ method: 'GET', path: '/v2/calls/recent' }).then(
        () => 1,
        () => 0,
      ),
    ),
  );
  return {
    wallMs: performance.now() - start,
    ok: outcomes.reduce<number>((a, b) => a + b, 0),
    rejected: usage().rejected,
    retries,
  };
}
