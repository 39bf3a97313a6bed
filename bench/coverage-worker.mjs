/**
 * One scenario of the coverage row (bench/rows/coverage.ts) in a process of its own, so that nothing
 * an earlier call loaded or warmed counts: loads `<dist>/index.js` (the ESM build: ky imported from
 * node_modules, so its modules are files of their own), makes a client with a stub fetch, then runs
 * one call under V8's precise coverage (node:inspector) and prints, as JSON, the SDK source files
 * (through the build's source maps) and the ky modules in which a function ran during that call.
 * Plain JavaScript run by `node`, so no loader transforms the files measured.
 *
 * argv: <dist dir> <scenario: list | retry | create-500> <JSON body of a 100-call page>
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [dist, scenario, pageBody] = process.argv.slice(2);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

const { TelephonyClient } = await import(pathToFileURL(join(dist, 'index.js')).href);
let answers = scenario === 'retry' ? [503, 200] : scenario === 'create-500' ? [500] : [200];
const json = (status, body) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const client = new TelephonyClient({
  baseUrl: 'https://api.example.com',
  accessToken: 'bench-token',
  // The retry's back-off resolves at once: the row counts code, not time.
  clock: { now: () => Date.now(), sleep: () => Promise.resolve() },
  fetch: async () => {
    const [status = 200, ...rest] = answers;
    answers = rest;
    if (status === 200 && scenario !== 'create-500') return json(200, JSON.parse(pageBody));
    return json(status, { status: 'error', code: `http_${status}`, message: 'stub' });
  },
});
// What loading the SDK and constructing the client ran is not the call's: the counters restart here.
await session.post('Profiler.takePreciseCoverage');

if (scenario === 'create-500') {
  await client.calls.create({ to: '+15550000000' }).then(
    () => {
      throw new Error('the stub answered 500: the call must fail');
    },
    () => {},
  );
} else {
  await client.calls.listRecent({ limit: 50 });
}
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();

const sdkFiles = new Set();
const kyModules = new Set();
const distPrefix = pathToFileURL(dist).href;
for (const script of result) {
  const ran = script.functions.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
  if (ran.length === 0) continue;
  const kyMatch = /\/node_modules\/ky\/(.+)$/.exec(script.url);
  if (kyMatch) {
    kyModules.add(kyMatch[1]);
    continue;
  }
  if (!script.url.startsWith(distPrefix)) continue;
  const path = fileURLToPath(script.url);
  const text = readFileSync(path, 'utf8');
  const map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  for (const fn of ran) {
    const offset = fn.ranges[0].startOffset;
    let line = lineStarts.length - 1;
    while (lineStarts[line] > offset) line--;
    const source = map.findEntry(line, offset - lineStarts[line]).originalSource;
    // The maps name the SDK's own sources (dist/src/…): a bundler's helper maps to none.
    if (source?.endsWith('.ts')) sdkFiles.add(source.replace(/^.*?\/src\//, 'src/'));
  }
}
console.log(JSON.stringify({ sdkFiles: [...sdkFiles].sort(), kyModules: [...kyModules].sort() }));
