/**
 * The runtime matrix's Worker legs, Cloudflare's workerd and Vercel's Edge Runtime. Each bundles with
 * its platform's export condition (bundle-worker.ts) and serves on 127.0.0.1:
 * 1. the smoke script every leg runs (smoke.mjs), inside a Worker, against the leg's sandbox;
 * 2. examples/worker.ts (a module-scope client and a webhook receiver) against the sandbox CLI:
 *    token and create, `for await` over a list, and the CLI's signed deliveries to `fetchHandler`.
 * workerd runs both under the minimum compatibility setting the docs name and under a current one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from './bundle-worker.js';
import { serveEdge } from './edge.js';
import { type SandboxCli, startSandboxCli } from './sandbox-cli.js';
import { startService } from './service.js';
import type { SmokeConfig, SmokeResult } from './types.js';
import {
  CURRENT_COMPATIBILITY,
  MINIMUM_COMPATIBILITY,
  type ServedWorker,
  serveWorkerd,
  WORKERD_VERSION,
} from './workerd.js';

const smokeFile = fileURLToPath(new URL('./smoke.mjs', import.meta.url));
const exampleFile = fileURLToPath(new URL('../../examples/worker.ts', import.meta.url));
const edgePackage = fileURLToPath(new URL('../../node_modules/edge-runtime/package.json', import.meta.url));

/** One way of running a Worker: bundle condition and format, how `worker` is handed to the runtime. */
interface Host {
  /** Shown before each check: the runtime and its setting. */
  label: string;
  condition: 'workerd' | 'edge-light';
  format: 'esm' | 'iife';
  /** Appended to a module that defines `worker` ({ fetch(request, env) }). */
  tail: string;
  serve(code: string, bindings: Record<string, string>): Promise<ServedWorker>;
}

const workerdHost = (compatibility: typeof MINIMUM_COMPATIBILITY): Host => ({
  label: `workerd ${WORKERD_VERSION}, ${compatibility.date}${compatibility.flags.map((f) => ` +${f}`).join('')}`,
  condition: 'workerd',
  format: 'esm',
  tail: 'export default worker;',
  serve: (code, bindings) => serveWorkerd(code, compatibility, bindings),
});

const edgeHost: Host = {
  label: `edge-runtime ${(JSON.parse(readFileSync(edgePackage, 'utf8')) as { version: string }).version}`,
  condition: 'edge-light',
  format: 'iife',
  tail: 'addEventListener("fetch", (event) => event.respondWith(worker.fetch(event.request, __ENV__)));',
  serve: serveEdge,
};

/** Bundles `source` + the host's tail, serves it with `bindings` while `use` runs, then stops it. */
async function served<T>(
  host: Host,
  source: string,
  bindings: Record<string, string>,
  use: (url: string) => Promise<T>,
  alias?: Record<string, string>,
): Promise<T> {
  const code = await bundleWorker({
    contents: `${source}\n${host.tail}`,
    resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    condition: host.condition,
    format: host.format,
    ...(alias ? { alias } : {}),
  });
  const worker = await host.serve(code, bindings);
  try {
    return await use(worker.url);
  } finally {
    await worker.close();
  }
}

/** The smoke script in a Worker: POST its config, get its results. */
async function smoke(host: Host, config: SmokeConfig): Promise<SmokeResult[]> {
  const source = `import * as sdk from ${JSON.stringify(`${config.dist}/index.js`)};
import * as webhooks from ${JSON.stringify(`${config.dist}/webhooks.js`)};
import { runSmoke } from ${JSON.stringify(smokeFile)};
const worker = {
  async fetch(request) {
    const config = await request.json();
    return Response.json(await runSmoke({ ...config, sdk, webhooks, browser: false }));
  },
};`;
  return served(host, source, {}, async (url) => {
    const body = JSON.stringify({ baseUrl: config.baseUrl, credentials: config.credentials });
    const res = await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(120_000) });
    if (!res.ok)
      throw new Error(`the smoke Worker answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    return (await res.json()) as SmokeResult[];
  });
}

/** examples/worker.ts against the sandbox CLI, its imports of `telephony-sdk` taken from `dist`. */
async function example(host: Host, dist: string): Promise<SmokeResult[]> {
  const cli = await startSandboxCli(dist);
  const results: SmokeResult[] = [];
  const check = async (name: string, body: () => Promise<string>) => {
    try {
      results.push({ name, status: 'pass', detail: await body() });
    } catch (error) {
      results.push({ name, status: 'fail', detail: error instanceof Error ? error.message : String(error) });
    }
  };
  const secret = 'whsec_worker_example';
  const source = `import worker from ${JSON.stringify(exampleFile)};`;
  const bindings = {
    TELEPHONY_BASE_URL: cli.baseUrl,
    TELEPHONY_CLIENT_ID: cli.clientId,
    TELEPHONY_CLIENT_SECRET: cli.clientSecret,
    TELEPHONY_WEBHOOK_SECRET: secret,
  };
  const sdkAlias = { 'telephony-sdk': `${dist}/index.js`, 'telephony-sdk/webhooks': `${dist}/webhooks.js` };
  try {
    await served(host, source, bindings, (url) => exampleChecks(url, cli, secret, dist, check), sdkAlias);
  } finally {
    await cli.close();
  }
  return results;
}

type Check = (name: string, body: () => Promise<string>) => Promise<void>;

async function exampleChecks(
  url: string,
  cli: SandboxCli,
  secret: string,
  dist: string,
  check: Check,
): Promise<void> {
  const json = async (res: Response) => {
    const text = await res.text();
    if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  await check('example Worker, sandbox CLI: token and calls.create (module-scope client)', async () => {
    const created = [];
    for (const to of ['+15550001111', '+15550002222', '+15550003333'])
      created.push(await json(await fetch(`${url}/calls`, { method: 'POST', body: JSON.stringify({ to }) })));
    if (!created.every((call) => call.status === 'initiating')) throw new Error(JSON.stringify(created));
    return `${created.map((call) => call.id).join(', ')} initiating`;
  });
  await check('example Worker, sandbox CLI: for await over calls.listRecent (2 per page)', async () => {
    const { ids } = (await json(await fetch(`${url}/calls`))) as { ids: string[] };
    if (ids.length !== 3 || new Set(ids).size !== 3) throw new Error(`ids ${ids.join(', ')}`);
    return `${ids.length} calls over 2 pages`;
  });
  await check("example Worker, sandbox CLI: fetchHandler verifies the CLI's signed deliveries", async () => {
    // Registered from Node, as a deploy script would; the CLI then delivers to the Worker.
    const { TelephonyClient } = (await import(`${dist}/index.js`)) as typeof import('../../src/index.js');
    const admin = new TelephonyClient({
      baseUrl: cli.baseUrl,
      clientId: cli.clientId,
      clientSecret: cli.clientSecret,
    });
    await admin.webhooks.create({
      url: `${url}/webhooks`,
      events: ['call.incoming', 'call.answered'],
      secret,
    });
    cli.type('incoming +15557654321 answered');
    const wanted = ['call.answered', 'call.incoming'];
    const deadline = Date.now() + 15_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = ((await json(await fetch(`${url}/events`))) as Array<{ type: string }>)
        .map((e) => e.type)
        .sort();
      if (wanted.every((type) => seen.includes(type))) return `received and verified: ${seen.join(', ')}`;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`after 15 s the receiver had ${seen.join(', ') || 'no event'}`);
  });
}

/** A leg: the runtime line, then smoke and example checks for each setting, named by setting. */
function workerLeg(hosts: Host[]) {
  return async (config: SmokeConfig): Promise<SmokeResult[]> => {
    const results: SmokeResult[] = [];
    for (const [i, host] of hosts.entries()) {
      const named = (list: SmokeResult[]) => list.map((r) => ({ ...r, name: `[${host.label}] ${r.name}` }));
      // The smoke script expects an empty sandbox: each setting after the first gets a fresh one.
      const service = i === 0 ? undefined : await startService(config.dist);
      try {
        const own = service
          ? { ...config, baseUrl: service.baseUrl, credentials: service.credentials }
          : config;
        results.push(...named(await smoke(host, own)));
      } finally {
        await service?.close();
      }
      results.push(...named(await example(host, config.dist)));
    }
    return [{ name: 'runtime', status: 'pass', detail: hosts.map((h) => h.label).join('; ') }, ...results];
  };
}

export const workerdLeg = workerLeg([workerdHost(MINIMUM_COMPATIBILITY), workerdHost(CURRENT_COMPATIBILITY)]);
export const edgeLeg = workerLeg([edgeHost]);
