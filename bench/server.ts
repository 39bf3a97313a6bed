/** A local keep-alive node:http server on 127.0.0.1 answering the endpoints the benchmarks use. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { recentCallsPage } from './fixtures.js';

export interface BenchServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  counts: { token: number; recent: number };
  close(): Promise<void>;
}

export interface BenchServerOptions {
  /** Calls the `calls/recent` collection holds (default 100: one full page). */
  totalCalls?: number;
  /** Milliseconds the token endpoint takes, so concurrent callers find the cache still cold. */
  tokenDelayMs?: number;
}

/**
 * The same server in a child process (bench/serve.ts): the client under test then has the
 * event loop to itself, as it would against a real service.
 */
export async function spawnBenchServer(
  options: BenchServerOptions = {},
): Promise<{ url: string; close(): void }> {
  const script = fileURLToPath(new URL('./serve.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { url } = JSON.parse(line) as { url: string };
  return { url, close: () => child.kill('SIGTERM') };
}

export async function startBenchServer(options: BenchServerOptions = {}): Promise<BenchServer> {
  const total = options.totalCalls ?? 100;
  const pages = new Map<string, string>();
  const counts = { token: 0, recent: 0 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    req.resume();
    if (req.method === 'POST' && url.pathname === '/v2/oauth/token') {
      counts.token++;
      const body = JSON.stringify({
        access_token: 'bench-token',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'calls:read',
      });
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
        options.tokenDelayMs ?? 0,
      );
      return;
    }
    if (req.method === 'GET' && url.pathname === '/v2/calls/recent') {
      counts.recent++;
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const key = `${offset}:${limit}`;
      let body = pages.get(key);
      if (body === undefined) {
        body = JSON.stringify(recentCallsPage(offset, limit, total));
        if (pages.size < 1000) pages.set(key, body);
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: 'error',
        code: 'not_found',
        message: `no route ${req.method} ${url.pathname}`,
      }),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
