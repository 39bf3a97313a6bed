// Runs the smoke script on a server-side runtime (Node, Bun, Deno) against the built package.
// Usage: <runtime> smoke-node.mjs '<json config: dist, baseUrl, credentials>'; prints one JSON line.
import { runSmoke } from './smoke.mjs';

const config = JSON.parse(process.argv[2] ?? globalThis.Deno?.args?.[0] ?? '{}');
const sdk = await import(`${config.dist}/index.js`);
const webhooks = await import(`${config.dist}/webhooks.js`);
const runtime = globalThis.Deno
  ? `Deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `Bun ${globalThis.Bun.version}`
    : `Node ${process.version}`;
const results = await runSmoke({ ...config, sdk, webhooks, browser: false });
console.log(JSON.stringify([{ name: 'runtime', status: 'pass', detail: runtime }, ...results]));
