/**
 * Runtime matrix (`npm run test:runtimes`, builds first): the same smoke script — token, one call
 * of each resource, pagination, errors, webhook verification — run with the built package on
 * Node 20 (this machine), Node 22, Node 24, Node 26, Bun, Deno, headless Chromium, Cloudflare's workerd and
 * Vercel's Edge Runtime (the last two inside a Worker, and serving examples/worker.ts against the
 * sandbox CLI: runtimes/worker-legs.ts). Node, Bun and Deno come from the npm registry through npx;
 * workerd and edge-runtime are pinned devDependencies. `npm run test:runtimes -- workerd edge` runs
 * some legs only; a name that is no leg is an error. Exits 1 if any check fails on any runtime.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInBrowser } from './runtimes/browser.js';
import { startService } from './runtimes/service.js';
import type { SmokeConfig, SmokeResult } from './runtimes/types.js';
import { edgeLeg, workerdLeg } from './runtimes/worker-legs.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const smokeNode = fileURLToPath(new URL('./runtimes/smoke-node.mjs', import.meta.url));
const smokeShared = fileURLToPath(new URL('./runtimes/smoke.mjs', import.meta.url));

type Leg = (config: SmokeConfig) => Promise<SmokeResult[]>;

/** A server-side runtime: `command args… smoke-node.mjs '<config>'`, one JSON line out. */
function cliLeg(command: string, args: string[]): Leg {
  return async (config) => {
    const { stdout } = await run(command, [...args, smokeNode, JSON.stringify(config)], {
      cwd: root,
      timeout: 180_000,
      env: { ...process.env, npm_config_update_notifier: 'false', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    });
    const last = stdout.trim().split('\n').at(-1) ?? '[]';
    return JSON.parse(last) as SmokeResult[];
  };
}

const legs: Record<string, Leg> = {
  node20: cliLeg(process.execPath, []),
  node22: cliLeg('npx', ['-y', 'node@22']),
  node24: cliLeg('npx', ['-y', 'node@24']),
  // Current since April 2026: its undici has changed proxies and timeouts under other SDKs.
  node26: cliLeg('npx', ['-y', 'node@26']),
  bun: cliLeg('npx', ['-y', 'bun@1']),
  deno: cliLeg('npx', ['-y', 'deno@2', 'run', '-A']),
  chromium: (config) => runInBrowser(config, smokeShared),
  workerd: workerdLeg,
  edge: edgeLeg,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in legs));
if (unknown.length > 0) {
  console.error(`no such runtime: ${unknown.join(', ')} (legs: ${Object.keys(legs).join(', ')})`);
  process.exit(2);
}
const selected = wanted.length > 0 ? wanted : Object.keys(legs);
const dist = process.env.TELEPHONY_SDK_DIST ?? `${root}dist`;
console.log(`smoke against a fresh sandbox (telephony-sdk/testing) per runtime, package from ${dist}\n`);

let failures = 0;
const matrixStarted = Date.now();
for (const name of selected) {
  const started = Date.now();
  let results: SmokeResult[];
  const service = await startService(dist);
  try {
    const config: SmokeConfig = { dist, baseUrl: service.baseUrl, credentials: service.credentials };
    results = await legs[name]!(config);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
    results = [{ name: 'run', status: 'fail', detail: message }];
  } finally {
    await service.close();
  }
  const count = (status: SmokeResult['status']) => results.filter((r) => r.status === status).length;
  const verdict = count('fail') > 0 ? 'FAIL' : count('pass') === 0 ? 'NOTHING RAN' : 'pass';
  if (count('fail') > 0) failures++;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `${name.padEnd(9)} ${verdict.padEnd(11)} ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped (${seconds} s)`,
  );
  for (const r of results)
    console.log(`    ${r.status.padEnd(4)} ${r.name}${r.detail ? ` — ${r.detail}` : ''}`);
}
console.log(
  `\n${selected.length - failures}/${selected.length} runtimes passed in ${((Date.now() - matrixStarted) / 1000).toFixed(1)} s`,
);
process.exit(failures > 0 ? 1 : 0);
