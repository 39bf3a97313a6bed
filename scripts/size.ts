/**
 * Size budgets: browser ESM bundles (esbuild, minified, gzip -9) of what a user ships.
 * `npm run size` builds first; `.ci/steps/20-size.sh` runs this after the CI build.
 * Exits 1 when a budget is exceeded, the webhooks entry pulls in ky, zod or a node builtin, or the
 * client or webhooks bundle holds the redis entry's code.
 *
 * `npx tsx scripts/size.ts --by-file` (no build needed) instead says what each file of src/ costs the
 * whole-SDK bundle built from the sources: its own minified bytes, and the gzip bytes the whole SDK and
 * the first load lose when the file (and whatever only it imports) is removed.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BundleMeasure, measureBrowserBundle, measureFirstLoad, packageOf } from './lib/bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Budgets in kB of 1 000 bytes: issue 5 set them; docs/dev/performance.md says why two moved since. */
const KB = 1000;

interface Entry {
  name: string;
  source: string;
  budgetKb?: number;
  /**
   * The goal, when the budget is a ratchet above it: a bundle over the goal but within the budget is
   * reported (`goal … unmet`) without failing, so growth still fails while the goal is worked on.
   */
  goalKb?: number;
  /** Files that must exist before the entry can be measured; missing → skipped with a message. */
  needs?: string[];
  /** Packages that must not appear in the bundle. */
  forbidden?: string[];
  /** Text that must not appear in the bundle: another entry's own code. */
  foreignCode?: string[];
  /** Measure only what loads first (code splitting on; chunks behind `import()` left out). */
  firstLoad?: boolean;
}

/** In the redis entry's Lua scripts only: what the client and the webhooks must never ship. */
const REDIS_CODE = "redis.call('TIME')";

/** Text only the pacer and the client-credentials flow ship (their messages). */
const PACING_CODE = 'shared state did not answer within';
const CLIENT_CREDENTIALS_CODE = 'grant_type';
/** Text only the log lines, the middleware chain and the deprecation-header reading ship. */
const LOG_CODE = '[telephony-sdk]';
const MIDDLEWARE_CODE = 'next() was called twice';
const DEPRECATION_CODE = 'Deprecation/Sunset headers';

/** A client that calls every resource method, so tree-shaking keeps all of them. */
const wholeSdk = `
import { TelephonyClient } from './dist/index.js';
export async function everyResource(accessToken: string) {
  const client = new TelephonyClient({ baseUrl: 'https://api.example.com', baseUrlV1: 'https://legacy.example.com', accessToken, apiKey: 'k' });
  client.on('retry', () => {});
  for await (const call of client.calls.listRecent({ limit: 100 })) void call;
  await client.calls.get('c');
  await client.calls.create({ to: '+15550000000' });
  await client.calls.end('c');
  await client.calls.transfer('c', { to: '+15550000001' });
  await client.stats.calls({ from: '2026-01-01', to: '2026-01-02' });
  await client.webhooks.create({ url: 'https://example.com/hook', events: ['call.incoming'] });
  for await (const user of client.users.list()) void user;
  await client.users.get('u');
  await client.users.create({ name: 'n', email: 'e@example.com' });
  await client.users.update('u', { name: 'm' });
  await client.users.delete('u');
  return client.request({ method: 'GET', path: '/v2/contacts' });
}`;

/** A typical response schema and parse, so tree-shaking keeps what an SDK would use of zod. */
function zodSchema(specifier: string, looseObject = 'z.looseObject', preamble = ''): string {
  return `import * as z from '${specifier}';${preamble}
const Party = ${looseObject}({ number: z.string().check(z.regex(/^\\+[1-9]\\d{1,14}$/)), name: z.string() });
const Call = ${looseObject}({ id: z.string(), status: z.enum(['ringing', 'completed']), from: Party, to: Party,
  duration: z.optional(z.nullable(z.number().check(z.int()))), timestamp: z.iso.datetime() });
export const parse = (x: unknown) => z.array(Call).parse(x);`;
}

if (process.argv.includes('--by-file')) {
  await byFile();
  process.exit(0);
}

const entries: Entry[] = [
  {
    // The ceiling is 31 kB (docs/dev/performance.md, Bundle size); the attempt loop's error fields,
    // idempotency look-ups, live lists, waitFor, logs, middleware, totalTimeout and the deprecation
    // warnings took the SDK past it. CI holds a ratchet at what ships so nothing grows it further
    // while the ceiling is decided again; the ceiling stays reported as unmet. 37 → 36.5 kB (36 488 B):
    // three zod types (union, pipe, transform) replaced by one check each. 36.5 → 37.5 kB (37 491 B): the
    // merges since (37 010 B), then +481 B for the log lines, the middleware chain and the
    // deprecation-header reading behind `import()` (a bundle without code splitting wraps each lazy
    // module, and what it imports, for evaluation at first use).
    name: 'telephony-sdk (client calling every resource)',
    source: wholeSdk,
    budgetKb: 37.5,
    goalKb: 31,
    needs: ['src/client.ts', 'src/resources/calls.ts', 'src/resources/users.ts', 'dist/index.js'],
    foreignCode: [REDIS_CODE],
  },
  {
    // A browser client with a static token and no pacing loads neither the pacing and shared-state
    // code nor the client-credentials flow up front: each is behind its subsystem's own `import()`
    // (pacing/pacing.ts, auth/credentials.ts), a chunk of its own. Ceiling 27 kB, passed by the same
    // features as the whole SDK's: a ratchet at what ships, the ceiling reported as unmet. 33.3 → 32 kB
    // (31 920 B): the idempotency look-ups and waitFor's polling load at first use, and the zod types
    // above. 32 → 30.9 kB (30 812 B; 32 347 B after the merges): the log lines (logs/log.ts, with the
    // redaction), the middleware chain and the deprecation-header reading load at first use too.
    name: 'telephony-sdk, browser client first load (static token, no rateLimit)',
    source: wholeSdk,
    budgetKb: 30.9,
    goalKb: 27,
    needs: ['src/core/pacing/pacing.ts', 'dist/index.js'],
    foreignCode: [
      REDIS_CODE,
      PACING_CODE,
      CLIENT_CREDENTIALS_CODE,
      LOG_CODE,
      MIDDLEWARE_CODE,
      DEPRECATION_CODE,
    ],
    firstLoad: true,
  },
  {
    // What an edge function that only verifies ships: the 2 kB goal holds here.
    name: 'telephony-sdk/webhooks (verifyWebhook + signWebhook)',
    source: `export { verifyWebhook, signWebhook } from './dist/webhooks.js';`,
    budgetKb: 2,
    needs: ['src/webhooks/signature.ts', 'dist/webhooks.js'],
    forbidden: ['ky', 'zod', 'eventemitter3'],
    foreignCode: [REDIS_CODE],
  },
  {
    // The receiver is built on eventemitter3 (issue 3), which alone is 1.3 kB of the 2 kB goal;
    // README's Performance section records the goal as unmet for the whole entry and why. 4 → 5 kB
    // for the receiver's handler timeout, body limit and safe observability; 5 → 5.4 kB for claims that
    // belong to their delivery and its own listener list (issue 18; docs/dev/performance.md). 5.4 → 5.6 kB
    // ratchet for the delivery span (issue 20) and the 2 s store bound (issue 19); the goal stays 5.4.
    // 5.6 → 6.6 kB (6 537 B) for the JSON reason of every refusal, the 16 KiB header cap, ValidationError
    // for bad arguments, the one-call claim (begin), the memory ceiling and the shared deadline timer
    // that took the per-delivery timers out (issue 33). 6.6 → 7.1 kB: the framework-aware "body already
    // read" hint, the 413 that closes the connection, `receiver.on` for any event type (issue 31, 28).
    // 7.1 → 7.4 kB (7 366 B): the receiver synchronous end to end for a synchronous store and handlers
    // (+325 B: the claim as a class, steps that chain only when a step is a promise); no client code.
    name: 'telephony-sdk/webhooks (whole entry, receiver included)',
    source: `export * from './dist/webhooks.js';`,
    budgetKb: 7.4,
    goalKb: 5.4,
    needs: ['src/webhooks/signature.ts', 'dist/webhooks.js'],
    forbidden: ['ky', 'zod'],
    foreignCode: [REDIS_CODE],
  },
  {
    // Server-side (the user's Redis client is Node's), so no browser budget: measured for the record,
    // and held to importing no package.
    name: 'telephony-sdk/redis (whole entry)',
    source: `export * from './dist/redis.js';`,
    needs: ['src/redis/index.ts', 'dist/redis.js'],
    forbidden: ['ky', 'zod', 'eventemitter3', 'redis', 'ioredis'],
  },
  { name: 'ky', source: `export { default } from 'ky';` },
  { name: 'zod/mini (import * as z, a call schema)', source: zodSchema('zod/mini') },
  {
    name: 'zod/mini + core $ZodObjectJIT (bench/mini-jit.ts)',
    source: zodSchema(
      'zod/mini',
      'looseObjectJIT',
      `\nimport { looseObjectJIT } from './bench/mini-jit.js';`,
    ),
  },
  { name: 'zod classic (import * as z, a call schema)', source: zodSchema('zod') },
  { name: 'eventemitter3', source: `export { EventEmitter } from 'eventemitter3';` },
  { name: 'openai (client)', source: `export { OpenAI } from 'openai';` },
  { name: 'stripe (browser build)', source: `export { default } from 'stripe';` },
];

interface Row {
  entry: Entry;
  measure?: BundleMeasure;
  problems: string[];
  note?: string;
}

const rows: Row[] = [];
for (const entry of entries) {
  const missing = (entry.needs ?? []).filter((file) => !existsSync(`${root}/${file}`));
  if (missing.length > 0) {
    rows.push({ entry, problems: [], note: `skipped: ${missing.join(', ')} not there yet` });
    continue;
  }
  try {
    const measure = await (entry.firstLoad ? measureFirstLoad : measureBrowserBundle)(entry.source, root);
    rows.push({ entry, measure, problems: problemsOf(entry, measure) });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    rows.push({ entry, problems: [`bundle failed: ${message}`] });
  }
}

function problemsOf(entry: Entry, measure: BundleMeasure): string[] {
  const problems: string[] = [];
  if (entry.budgetKb !== undefined && measure.gzip > entry.budgetKb * KB) {
    problems.push(`over budget: ${kb(measure.gzip)} (${measure.gzip} B) > ${entry.budgetKb} kB gzip`);
  }
  if (entry.forbidden) {
    const packages = new Set(Object.keys(measure.inputs).map(packageOf));
    for (const name of entry.forbidden) if (packages.has(name)) problems.push(`contains ${name}`);
    for (const name of measure.externalImports) problems.push(`imports ${name} statically`);
  }
  for (const code of entry.foreignCode ?? [])
    if (measure.code.includes(code)) problems.push(`contains ${code}`);
  return problems;
}

function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} kB`;
}

console.log('Browser ESM bundles (esbuild --minify, gzip -9; 1 kB = 1000 B)\n');
console.log(
  `${'bundle'.padEnd(50)}${'min'.padStart(10)}${'gzip'.padStart(10)}${'budget'.padStart(10)}  result`,
);
for (const { entry, measure, problems, note } of rows) {
  const budget = entry.budgetKb === undefined ? '' : `${entry.budgetKb} kB`;
  const unmet =
    measure && entry.goalKb !== undefined && measure.gzip > entry.goalKb * KB
      ? ` (goal ${entry.goalKb} kB unmet: ${measure.gzip} B)`
      : '';
  const result =
    note ?? (problems.length > 0 ? `FAIL ${problems.join('; ')}` : entry.budgetKb ? `ok${unmet}` : '');
  const min = measure ? kb(measure.minified) : '-';
  const gz = measure ? kb(measure.gzip) : '-';
  console.log(
    `${entry.name.padEnd(50)}${min.padStart(10)}${gz.padStart(10)}${budget.padStart(10)}  ${result}`,
  );
}

const whole = rows[0]?.measure;
if (whole) {
  console.log('\nWhat each package contributes to the whole-SDK bundle (minified bytes, before gzip):');
  const byPackage = new Map<string, number>();
  for (const [path, bytes] of Object.entries(whole.inputs)) {
    const name = packageOf(path) === 'telephony-sdk' ? `telephony-sdk ${path}` : packageOf(path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytes);
  }
  for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1])) {
    const share = ((bytes / whole.minified) * 100).toFixed(0);
    console.log(`  ${name.padEnd(60)}${kb(bytes).padStart(10)} ${share.padStart(3)}%`);
  }
}

const failed = rows.filter((row) => row.problems.length > 0);
if (failed.length > 0) {
  console.error(`\n${failed.length} size check(s) failed.`);
  process.exit(1);
}

/** What each file of src/ costs the client calling every resource, built from src/ (see the header). */
async function byFile(): Promise<void> {
  const source = wholeSdk.replace('./dist/index.js', './src/index.ts');
  const [whole, first] = await Promise.all([
    measureBrowserBundle(source, root),
    measureFirstLoad(source, root),
  ]);
  console.log(`Whole SDK from src/: ${whole.gzip} B gzip; first load ${first.gzip} B`);
  console.log("min: the file's own minified bytes; gzip −: bytes lost when it and what only it imports go\n");
  console.log(
    `${'file'.padEnd(44)}${'min'.padStart(8)}${'whole gzip −'.padStart(14)}${'first gzip −'.padStart(14)}`,
  );
  const files = Object.entries(whole.inputs)
    .filter(([path]) => path.startsWith('src/'))
    .sort((a, b) => b[1] - a[1]);
  for (const [path, min] of files) {
    // One at a time: a 2-core machine gains nothing from more builds at once.
    const lessWhole = await measureBrowserBundle(source, root, path);
    const lessFirst = await measureFirstLoad(source, root, path);
    console.log(
      `${path.padEnd(44)}${String(min).padStart(8)}${String(whole.gzip - lessWhole.gzip).padStart(14)}${String(first.gzip - lessFirst.gzip).padStart(14)}`,
    );
  }
}
