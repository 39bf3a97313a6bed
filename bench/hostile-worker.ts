/**
 * One hostile answer, in a process of its own (bench/rows/hostile.ts), so that its RSS growth is not
 * hidden by memory an earlier scenario left to the allocator. Forked with its config as JSON in argv[2]:
 * a TelephonyClient from the built SDK (./dist, or TELEPHONY_SDK_DIST) asks `path` of `baseUrl` `runs`
 * times; the first run is the cold one. For each run it reports the event loop's longest block (from
 * `monitorEventLoopDelay`), the highest RSS above the level before the call (sampled every 2 ms, after
 * a warm-up call and a full collection) and what the call rejected with. `floorBytes` replaces the
 * client by plain fetch reading that many bytes, then cancelling (0: the whole body as text): what
 * reading the answer costs any client.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadSdk } from './sdk.js';

export interface HostileWorkerConfig {
  baseUrl: string;
  path: string;
  runs: number;
  floorBytes?: number;
}

export interface HostileRun {
  maxBlockMs: number;
  rssGrowthMb: number;
  totalMs: number;
  /** `Class code`, and the message's length. */
  outcome: string;
  messageLength: number;
}

const MB = 1024 * 1024;
const config = JSON.parse(process.argv[2] ?? '{}') as HostileWorkerConfig;
const sdk = await loadSdk();
if (!sdk) throw new Error('build the SDK first (npm run bench builds it)');
const client = new sdk.TelephonyClient({
  baseUrl: config.baseUrl,
  accessToken: 'bench-token',
  maxRetries: 0,
});
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Plain fetch: `bytes` of the body read, the rest cancelled; 0: all of it, as text. */
async function floor(bytes: number): Promise<void> {
  const response = await fetch(`${config.baseUrl}${config.path}`);
  if (bytes === 0) return void (await response.text());
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  for (let read = 0; read < bytes; ) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    read += value.byteLength;
  }
  await reader.cancel();
}

const describe = (error: unknown) => {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  return { outcome: `${name ?? typeof error} ${code ?? ''}`.trim(), messageLength: message?.length ?? 0 };
};

// Loads the modules the error path uses (a small error answer), as a process that has failed once has.
await client.request({ method: 'GET', path: '/v2/small-error' }).catch(() => {});

const runs: HostileRun[] = [];
for (let i = 0; i < config.runs; i++) {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const result =
    config.floorBytes === undefined
      ? await client
          .request({ method: 'GET', path: config.path })
          .then(() => ({ outcome: 'resolved', messageLength: 0 }), describe)
      : await floor(config.floorBytes).then(() => ({
          outcome: config.floorBytes === 0 ? 'read as text' : 'cancelled past the cap',
          messageLength: 0,
        }));
  const totalMs = performance.now() - started;
  delay.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  runs.push({ maxBlockMs: delay.max / 1e6, rssGrowthMb: (peak - before) / MB, totalMs, ...result });
}
process.send?.({ runs });
process.exit(0);
