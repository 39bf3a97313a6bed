// Runs the smoke script on a server-side runtime (Node, Bun, Deno) against the built package's Node build.
// Usage: <runtime> smoke-node.mjs '<json config: dist, baseUrl, credentials>'; prints one JSON line.
import { existsSync } from 'node:fs';
import { runSmoke } from './smoke.mjs';

const config = JSON.parse(process.argv[2] ?? globalThis.Deno?.args?.[0] ?? '{}');
// The build Node, Bun and Deno resolve through `exports` (the `node` condition): dist/node/. A build
// without one (an earlier commit's dist/) has only dist/.
const build = existsSync(`${config.dist}/node/index.js`) ? `${config.dist}/node` : config.dist;
const sdk = await import(`${build}/index.js`);
const webhooks = await import(`${build}/webhooks.js`);
const runtime = globalThis.Deno
  ? `Deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `Bun ${globalThis.Bun.version}`
    : `Node ${process.version}`;
const results = await runSmoke({ ...config, sdk, webhooks, browser: false });
console.log(
  JSON.stringify([{ name: 'runtime', status: 'pass', detail: `${runtime}, ${build}` }, ...results]),
);
