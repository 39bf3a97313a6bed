/**
 * Row: how much of the SDK one call runs. With V8's precise coverage over a stub fetch, the SDK source
 * files (through the build's source maps) and ky modules in which a function ran during one call:
 * a `calls.listRecent` GET, a GET answered 503 then 200, and a `calls.create` answered 500. Each
 * scenario runs in a fresh process (bench/coverage-worker.mjs) on the ESM build of dist/, so what
 * loading the SDK or an earlier call ran does not count. `TELEPHONY_SDK_BASELINE_DIST=<dir>` (another
 * checkout's built dist/, with its node_modules beside it) is measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { recentCallsPage } from '../fixtures.js';
import { goal, type RowResult } from '../report.js';

const WORKER = fileURLToPath(new URL('../coverage-worker.mjs', import.meta.url));
const DIST = process.env.TELEPHONY_SDK_DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
const BASELINE = process.env.TELEPHONY_SDK_BASELINE_DIST;

const SCENARIOS = [
  ['list', 'calls.listRecent GET'],
  ['retry', 'GET answered 503, then 200'],
  ['create-500', 'calls.create answered 500'],
] as const;

/** The goal of STYLE.md §1: about as many files as openai-node's 14 for a list call. */
const LIST_GOAL = 16;

interface Ran {
  sdkFiles: string[];
  kyModules: string[];
}

function measure(dist: string, scenario: string): Ran {
  const page = JSON.stringify(recentCallsPage(0, 50, 100));
  return JSON.parse(
    execFileSync(process.execPath, [WORKER, dist, scenario, page], { encoding: 'utf8' }),
  ) as Ran;
}

export function coverageRow(): RowResult {
  const row = 'coverage: SDK files and ky modules that run code for one call (V8 coverage, stub fetch)';
  const command = 'npm run bench -- coverage';
  if (!existsSync(`${DIST}/index.js`)) {
    return {
      row,
      command,
      table: [['call']],
      goals: [goal(`list call ≤ ${LIST_GOAL} SDK files`, null, 'dist/ not built')],
      notes: [],
    };
  }
  const dists: Array<[string, string]> = [['telephony-sdk', DIST]];
  if (BASELINE !== undefined) dists.push(['baseline', BASELINE]);
  const results = new Map<string, Ran>();
  for (const [name, dist] of dists)
    for (const [scenario] of SCENARIOS) results.set(`${name} ${scenario}`, measure(dist, scenario));
  const head = ['call', ...dists.flatMap(([name]) => [`${name}: SDK files`, `${name}: ky modules`])];
  const table = [
    head,
    ...SCENARIOS.map(([scenario, label]) => [
      label,
      ...dists.flatMap(([name]) => {
        const ran = results.get(`${name} ${scenario}`) as Ran;
        return [String(ran.sdkFiles.length), String(ran.kyModules.length)];
      }),
    ]),
  ];
  const list = results.get('telephony-sdk list') as Ran;
  return {
    row,
    command,
    table,
    goals: [
      goal(
        `a list call runs code in ≤ ${LIST_GOAL} SDK files`,
        list.sdkFiles.length <= LIST_GOAL,
        `${list.sdkFiles.length} files`,
      ),
    ],
    // The files themselves, so a change in the count can be read off.
    notes: [...results].map(
      ([key, ran]) => `${key}: ${ran.sdkFiles.join(' ')} | ky: ${ran.kyModules.join(' ')}`,
    ),
  };
}
