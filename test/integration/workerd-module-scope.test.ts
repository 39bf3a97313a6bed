import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox } from 'telephony-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleWorker } from '../../scripts/runtimes/bundle-worker.js';
import {
  CURRENT_COMPATIBILITY,
  MINIMUM_COMPATIBILITY,
  type ServedWorker,
  serveWorkerd,
} from '../../scripts/runtimes/workerd.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const S = 1000;
/** The sandbox's token lifetime, and where its windows start: advisory 60 s before expiry. */
const LIFETIME = 3600 * S;
const IN_ADVISORY = LIFETIME - 50 * S;
/** The calls' time-out in the Worker: how long a call may wait on a renewal another request started. */
const TIMEOUT_MS = 1000;

/**
 * The sandbox behind a real socket, whose token answers the test can hold back: a slow token
 * endpoint, so a renewal is still running when the request that started it ends.
 */
async function slowTokenService(sandbox: Sandbox) {
  let holdNext = false;
  const held: ServerResponse[] = [];
  const arrived: Array<() => void> = [];
  let tokenRequests = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.url === '/v2/oauth/token') {
      tokenRequests++;
      for (const notify of arrived.splice(0)) notify();
      if (holdNext) {
        holdNext = false;
        held.push(res); // never answered: workerd ends it with the request that started it
        return;
      }
    }
    const answer = await sandbox.fetch(`http://127.0.0.1${req.url}`, {
      method: req.method ?? 'GET',
      headers: req.headers as Record<string, string>,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    res
      .writeHead(answer.status, Object.fromEntries(answer.headers))
      .end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get tokenRequests() {
      return tokenRequests;
    },
    /** The next token request gets no answer; resolves when it has arrived. */
    holdNextToken(): Promise<void> {
      holdNext = true;
      return new Promise((resolve) => arrived.push(resolve));
    },
    held,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// API.md, Client: a client at module scope in a Worker serves many requests, and nothing one request
// starts in the background (here a token renewal) is awaited by a later one past its time-out.
// workerd drops such a promise when its request ends: under the minimum compatibility date it never
// settles, under a current one it rejects at once ("created by a request that has since ended").
describe.each([
  ['minimum', MINIMUM_COMPATIBILITY],
  ['current', CURRENT_COMPATIBILITY],
])('workerd serve, a module-scope client (%s compatibility)', (_name, compatibility) => {
  it('every request succeeds after a background renewal was orphaned by its request ending, twice over', async () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.close());
    const service = await slowTokenService(sandbox);
    cleanups.push(() => service.close());
    const code = await bundleWorker({
      contents: readFileSync(`${here}workerd-module-scope.worker.ts`, 'utf8'),
      resolveDir: here,
      condition: 'workerd',
      format: 'esm',
      alias: { 'telephony-sdk': fileURLToPath(new URL('../../src/index.ts', import.meta.url)) },
    });
    const worker: ServedWorker = await serveWorkerd(code, compatibility, {
      BASE_URL: service.url,
      CLIENT_ID: sandbox.credentials.clientId,
      CLIENT_SECRET: sandbox.credentials.clientSecret,
      TIMEOUT_MS: String(TIMEOUT_MS),
    });
    cleanups.push(() => worker.close());
    // A request the Worker never answers (the defect, minimum date) fails here, not at the test's time-out.
    const call = async () => {
      const res = await fetch(`${worker.url}/calls`, { signal: AbortSignal.timeout(5 * TIMEOUT_MS) });
      return res.json();
    };
    const advance = (ms: number) => fetch(`${worker.url}/advance?ms=${ms}`, { method: 'POST' });

    expect(await call()).toEqual({ ok: true, items: 0 });
    expect(service.tokenRequests).toBe(1);
    for (let cycle = 1; cycle <= 2; cycle++) {
      await advance(IN_ADVISORY); // from the token in use
      const renewal = service.holdNextToken();
      // Answered with the still-valid token; the renewal it started outlives the request.
      expect(await call()).toEqual({ ok: true, items: 0 });
      await renewal;
      await advance(LIFETIME - IN_ADVISORY + 1); // the old token has expired
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await call());
      expect(answers).toEqual(Array.from({ length: 5 }, () => ({ ok: true, items: 0 })));
      // Per cycle: the orphaned renewal, then one new one for every later call.
      expect(service.tokenRequests).toBe(1 + 2 * cycle);
    }
    expect(service.held).toHaveLength(2);
  });
});
