/**
 * Issue 18's hostile answers, over real HTTP: a node:http server on 127.0.0.1 in this process serves
 * them, and each scenario runs in a forked process (bench/hostile-worker.ts) with the built SDK.
 *
 * - A 1 MiB non-JSON error body made of `<` runs (quadratic for a tag-stripping regex): the event
 *   loop's longest block while the answer becomes an error, cold (first run) and warm, beside plain
 *   fetch reading it as text (what this machine's event loop shows for the read alone).
 * - A 50 MB HTML 500 and an endless 200 (the server stops at 1 GiB, or when the client goes away): RSS
 *   growth while the call runs, against the default `maxResponseBytes` of 8 MiB. Beside it, plain fetch
 *   reading 8 MiB and cancelling the rest: what reading up to the cap costs any client in RSS (the
 *   chunks, undici's buffers, and V8's young generation growing under the allocation rate), the floor
 *   the SDK is measured against.
 *
 * Bounded: each process is killed after WORKER_MS. With TELEPHONY_SDK_BASELINE_DIST, the same
 * scenarios run against that build too (an earlier commit's dist), for a before and after.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { HostileRun, HostileWorkerConfig } from '../hostile-worker.js';
import { fmt, goal, type RowResult } from '../report.js';

const MB = 1024 * 1024;
const CAP_MB = 8;
const WARM_RUNS = 4;
const WORKER_MS = 60_000;
const CHUNK = Buffer.alloc(64 * 1024, '<p>hostile</p> ');
const ENDLESS_LIMIT = 1024 * MB;
const workerPath = fileURLToPath(new URL('../hostile-worker.ts', import.meta.url));

/** `<` runs and `<a` pairs: 1 MiB without a closing `>`. */
const HOSTILE_1M = `${'<'.repeat(512 * 1024)}${'<a'.repeat(256 * 1024)}`;

/** Writes `total` bytes of HTML with backpressure, and stops when the client goes away. */
async function stream(res: ServerResponse, total: number): Promise<void> {
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done).off('close', done);
        resolve();
      };
      res.on('drain', done).on('close', done);
    });
  for (let sent = 0; sent < total && !closed; sent += CHUNK.byteLength) {
    if (!res.write(CHUNK)) await drained();
  }
  res.end();
}

async function startServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const html = { 'content-type': 'text/html' };
    if (req.url === '/v2/html-1m') return res.writeHead(500, html).end(HOSTILE_1M);
    if (req.url === '/v2/html-50m') {
      res.writeHead(500, html);
      return void stream(res, 50 * MB);
    }
    if (req.url === '/v2/endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void stream(res, ENDLESS_LIMIT);
    }
    res.writeHead(500, html).end('<p>small</p>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The scenario's runs in a fresh process, or `undefined` when it did not finish within WORKER_MS. */
async function inWorker(
  config: HostileWorkerConfig,
  dist: string | undefined,
): Promise<HostileRun[] | undefined> {
  const child = fork(workerPath, [JSON.stringify(config)], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: dist === undefined ? process.env : { ...process.env, TELEPHONY_SDK_DIST: dist },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), WORKER_MS);
  let runs: HostileRun[] | undefined;
  child.on('message', (message: { runs: HostileRun[] }) => {
    runs = message.runs;
  });
  await once(child, 'exit');
  clearTimeout(timer);
  return runs;
}

const ms = (value: number) => `${fmt(value, 1)} ms`;

export async function hostileRow(): Promise<RowResult> {
  const server = await startServer();
  const contenders: [string, string | undefined, number?][] = [
    ['telephony-sdk', undefined],
    ['fetch reading the body as text (floor)', undefined, 0],
    ['fetch reading 8 MiB, then cancel (floor)', undefined, CAP_MB * MB],
  ];
  const baseline = process.env.TELEPHONY_SDK_BASELINE_DIST;
  if (baseline !== undefined) contenders.push(['baseline build', baseline]);
  const table = [
    [
      'scenario',
      'contender',
      'longest block (cold)',
      'longest block (warm, max)',
      'RSS growth',
      'call',
      'outcome',
    ],
  ];
  const measured: Record<string, HostileRun[] | undefined> = {};
  const floors: Record<string, HostileRun[] | undefined> = {};
  try {
    for (const [scenario, path, runs] of [
      ['1 MiB non-JSON 500', '/v2/html-1m', 1 + WARM_RUNS],
      ['50 MB HTML 500', '/v2/html-50m', 1],
      ['endless 200', '/v2/endless', 1],
    ] as const) {
      for (const [name, dist, floorBytes] of contenders) {
        // The whole body as text is the floor of the 1 MiB answer; 8 MiB then cancel, of the others.
        if (floorBytes !== undefined && (floorBytes === 0) !== runs > 1) continue;
        const config = {
          baseUrl: server.url,
          path,
          runs,
          ...(floorBytes === undefined ? {} : { floorBytes }),
        };
        const result = await inWorker(config, dist);
        if (name === 'telephony-sdk') measured[scenario] = result;
        if (floorBytes !== undefined) floors[scenario] = result;
        const [cold, ...warm] = result ?? [];
        table.push(
          cold === undefined
            ? [scenario, name, `> ${fmt(WORKER_MS / 1000)} s (killed)`, '-', '-', '-', '-']
            : [
                scenario,
                name,
                ms(cold.maxBlockMs),
                warm.length > 0 ? ms(Math.max(...warm.map((r) => r.maxBlockMs))) : '-',
                `${fmt(cold.rssGrowthMb, 1)} MB`,
                ms(cold.totalMs),
                `${cold.outcome}, message ${fmt(cold.messageLength)} chars`,
              ],
        );
      }
    }
  } finally {
    await server.close();
  }
  const blocks = measured['1 MiB non-JSON 500']?.map((r) => r.maxBlockMs);
  const rssGoal = (scenario: string) => {
    const growth = measured[scenario]?.[0]?.rssGrowthMb;
    const base = floors[scenario]?.[0]?.rssGrowthMb;
    return goal(
      `${scenario}: RSS growth ≤ the floor (plain fetch reading the ${CAP_MB} MiB cap) + 8 MB`,
      growth === undefined || base === undefined ? false : growth <= base + 8,
      growth === undefined || base === undefined
        ? 'did not finish'
        : `${fmt(growth, 1)} MB, floor ${fmt(base, 1)} MB`,
    );
  };
  return {
    row: 'hostile answers over real HTTP (issue 18): event-loop block and RSS growth',
    command: 'npm run bench -- hostile',
    table,
    goals: [
      goal(
        'mapping a 1 MiB non-JSON error body blocks the event loop < 50 ms (every run, cold included)',
        blocks === undefined ? false : Math.max(...blocks) < 50,
        blocks === undefined ? 'did not finish' : blocks.map((b) => ms(b)).join(', '),
      ),
      rssGoal('50 MB HTML 500'),
      rssGoal('endless 200'),
    ],
    notes: [
      'each scenario in a fresh process, after a warm-up call that loads the error path; RSS sampled every 2 ms',
    ],
  };
}
