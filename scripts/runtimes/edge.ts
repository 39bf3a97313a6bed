/**
 * Vercel's Edge Runtime for the edge leg: the npm `edge-runtime` (pinned in package.json) runs one
 * script that answers `fetch` events, served on a free 127.0.0.1 port.
 */
import { EdgeRuntime, runServer } from 'edge-runtime';
import type { ServedWorker } from './workerd.js';

/** Serves `script` (an IIFE that calls `addEventListener('fetch', …)`); `bindings` are the global `__ENV__`. */
export async function serveEdge(
  script: string,
  bindings: Record<string, string> = {},
): Promise<ServedWorker> {
  const runtime = new EdgeRuntime({ initialCode: `var __ENV__ = ${JSON.stringify(bindings)};\n${script}` });
  const server = await runServer({ runtime, host: '127.0.0.1', port: 0 });
  return { url: server.url.replace(/\/$/, ''), close: () => server.close() };
}
