/**
 * Cold start (issue 17): a new Node process that loads `telephony-sdk` from its installed package
 * and constructs a client, against openai-node doing the same, against bare `node -e 0`. The
 * package is packed (dist/ as built) and installed into a temp project beside openai (packed from
 * this repository's node_modules, so no registry is needed for it), the way users get both. Each
 * contender is one `node <script>` run, timed from outside (spawn to exit), in rounds with the
 * order rotated; medians. ESM `import` and CJS `require` are measured apart. Each process also
 * reports the CPU time it used (all threads, `process.cpuUsage()` at exit, through a file every
 * contender preloads): steadier than wall time when other work shares the machine.
 *
 * `TELEPHONY_SDK_BASELINE_DIST=<dir>` also packs and installs the package with that dist/ in place
 * of ./dist (conditions of `exports` whose files it lacks dropped), measured in the same rounds.
 * `TELEPHONY_BENCH_COLDSTART_ROUNDS=<n>` changes the number of rounds (default 20).
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packTarball, packTarballWithDist, projectWithTarball, repoRoot } from '../../scripts/lib/tarball.js';
import { median } from '../harness.js';
import { fmt, goal, type RowResult } from '../report.js';

const ROUNDS = Number(process.env.TELEPHONY_BENCH_COLDSTART_ROUNDS ?? 20);
const WARMUP_RUNS = 2;
/** Issue 17: the SDK's cold start at most this times openai-node's, same format, same run. */
const GOAL = 0.9;
const BARE = 'bare node -e 0';

const SCRIPTS: Record<string, string> = {
  'sdk.mjs': `import { TelephonyClient } from 'telephony-sdk';
new TelephonyClient({ baseUrl: 'https://api.example.com', accessToken: 't' });
`,
  'sdk.cjs': `const { TelephonyClient } = require('telephony-sdk');
new TelephonyClient({ baseUrl: 'https://api.example.com', accessToken: 't' });
`,
  'openai.mjs': `import OpenAI from 'openai';
new OpenAI({ apiKey: 'k' });
`,
  'openai.cjs': `const { OpenAI } = require('openai');
new OpenAI({ apiKey: 'k' });
`,
  // What ky 1.14 (and 2.1) does when it is imported (core/constants.ts, supportsRequestStreams):
  // one streamed Request, which makes Node load its fetch implementation (undici, web streams, zlib).
  'request.mjs': `new Request('https://empty.invalid', { body: new ReadableStream(), method: 'POST', duplex: 'half' });
`,
  // Preloaded into every process (`-r`): the CPU time it used, user + system µs, on stderr.
  'cpu-report.cjs': `process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write('cpu ' + (user + system) + '\\n');
});
`,
};

interface Contender {
  name: string;
  format: 'ESM' | 'CJS' | '';
  cwd: string;
  args: string[];
}

interface Sample {
  /** Spawn to exit, ms. */
  wall: number;
  /** CPU time the process used, ms. */
  cpu: number;
}

function setUpProject(tarball: string, ...others: string[]): string {
  const project = projectWithTarball(tarball, ...others);
  for (const [file, source] of Object.entries(SCRIPTS)) writeFileSync(join(project, file), source);
  return project;
}

/** Children run without the bench's own loader (tsx) or any NODE_OPTIONS. */
const childEnv = { ...process.env, NODE_OPTIONS: '' };

/** One process, start to exit; throws with its stderr if it failed. */
function timeRun({ name, cwd, args }: Contender): Sample {
  const start = performance.now();
  const child = spawnSync(process.execPath, ['-r', './cpu-report.cjs', ...args], {
    cwd,
    env: childEnv,
    encoding: 'utf8',
    timeout: 30_000,
  });
  const wall = performance.now() - start;
  const cpu = /^cpu (\d+)$/m.exec(child.stderr)?.[1];
  if (child.status !== 0 || cpu === undefined) {
    throw new Error(`${name}: exit ${child.status ?? child.signal}: ${child.stderr.split('\n')[0]}`);
  }
  return { wall, cpu: Number(cpu) / 1000 };
}

function quartiles(values: number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return [at(0.25), at(0.75)];
}

export async function coldStartRows(): Promise<RowResult[]> {
  const made: string[] = [];
  const baselineDist = process.env.TELEPHONY_SDK_BASELINE_DIST;
  try {
    const tarball = packTarball();
    const openaiTarball = packTarball(join(repoRoot, 'node_modules/openai'));
    made.push(dirname(tarball), dirname(openaiTarball));
    const project = setUpProject(tarball, openaiTarball);
    made.push(project);
    let baselineProject: string | undefined;
    if (baselineDist !== undefined) {
      const baselineTarball = packTarballWithDist(baselineDist);
      made.push(dirname(baselineTarball));
      baselineProject = setUpProject(baselineTarball);
      made.push(baselineProject);
    }

    const contenders: Contender[] = [
      { name: BARE, format: '', cwd: project, args: ['-e', '0'] },
      { name: 'node, one streamed Request', format: '', cwd: project, args: ['request.mjs'] },
    ];
    for (const [format, ext] of [
      ['ESM', 'mjs'],
      ['CJS', 'cjs'],
    ] as const) {
      contenders.push({ name: `openai-node, ${format}`, format, cwd: project, args: [`openai.${ext}`] });
      contenders.push({ name: `telephony-sdk, ${format}`, format, cwd: project, args: [`sdk.${ext}`] });
      if (baselineProject) {
        contenders.push({
          name: `baseline build, ${format}`,
          format,
          cwd: baselineProject,
          args: [`sdk.${ext}`],
        });
      }
    }

    const loadBefore = loadavg()[0]!;
    for (const contender of contenders) for (let i = 0; i < WARMUP_RUNS; i++) timeRun(contender);
    const samples = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < contenders.length; i++) {
        const contender = contenders[(i + round) % contenders.length]!;
        samples.get(contender.name)!.push(timeRun(contender));
      }
    }
    const loadAfter = loadavg()[0]!;

    const medianOf = (name: string, of: keyof Sample = 'wall') =>
      median(samples.get(name)!.map((sample) => sample[of]));
    const table = [
      [
        'contender',
        'wall ms',
        'q1–q3',
        'above bare',
        'vs openai-node',
        'CPU ms',
        'above bare',
        'vs openai-node',
      ],
    ];
    for (const c of contenders) {
      const peer = c.format ? `openai-node, ${c.format}` : undefined;
      const cells = [c.name];
      for (const of of ['wall', 'cpu'] as const) {
        const ms = medianOf(c.name, of);
        cells.push(fmt(ms, 1));
        if (of === 'wall') {
          const [q1, q3] = quartiles(samples.get(c.name)!.map((sample) => sample.wall));
          cells.push(`${fmt(q1)}–${fmt(q3)}`);
        }
        cells.push(c.name === BARE ? '' : `+${fmt(ms - medianOf(BARE, of), 1)}`);
        cells.push(peer === undefined ? '' : `${(ms / medianOf(peer, of)).toFixed(2)}×`);
      }
      table.push(cells);
    }

    const goals = (['ESM', 'CJS'] as const).map((format) => {
      const ratioOf = (name: string, of: keyof Sample = 'wall') =>
        (medianOf(name, of) / medianOf(`openai-node, ${format}`, of)).toFixed(2);
      const ratio = medianOf(`telephony-sdk, ${format}`) / medianOf(`openai-node, ${format}`);
      const before = baselineProject ? `; baseline build ${ratioOf(`baseline build, ${format}`)}×` : '';
      return goal(
        `${format === 'ESM' ? "ESM import (the issue's figure)" : 'CJS require (same bar)'}: new process, load the installed package and construct a client ≤ ${GOAL}× openai-node`,
        ratio <= GOAL,
        `${ratio.toFixed(2)}× wall time${before} (CPU time ${ratioOf(`telephony-sdk, ${format}`, 'cpu')}×)`,
      );
    });

    return [
      {
        row: 'Cold start: node process, installed package, import + construct a client',
        command: 'npm run bench -- coldstart',
        table,
        goals,
        notes: [
          `${ROUNDS} rounds of ${contenders.length} processes (order rotated) after ${WARMUP_RUNS} untimed runs each; medians of wall time (spawn to exit) and of the CPU time each process used (all threads)`,
          `load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; Node ${process.version}`,
          "'node, one streamed Request': what ky does when imported, which loads Node's fetch (undici); part of the SDK's figure, openai-node defers it to the first request",
          baselineDist === undefined
            ? 'set TELEPHONY_SDK_BASELINE_DIST=<dist of an earlier build> to measure it beside ./dist'
            : `baseline build: ${baselineDist}`,
        ],
      },
    ];
  } finally {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  }
}
