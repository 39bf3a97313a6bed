/**
 * The console's host check over a real socket: the request line cannot choose the host the check
 * compares against. A DNS-rebound page (evil.test resolving to 127.0.0.1) sends `Host: evil.test:P`
 * and could ask for `//evil.test:P/_console/…` or the absolute form `http://evil.test:P/_console/…`.
 */
import { createSandbox } from 'telephony-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleWorldOf } from '../../src/testing/sandbox.js';
import { rawRequest } from './raw-http.js';

const sandbox = createSandbox();
let server: Awaited<ReturnType<typeof sandbox.listen>>;
beforeAll(async () => {
  server = await sandbox.listen({ console: true });
});
afterAll(() => server.close());

/** Sends one raw HTTP/1.1 request (fetch would normalise the target) and resolves to its status line's code. */
async function rawStatus(target: string, method: 'GET' | 'POST', host: string): Promise<number> {
  const body = method === 'POST' ? JSON.stringify({ from: '+15557654321' }) : '';
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${host}`,
    `Origin: http://${host}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return (await rawRequest(server.port, head, [body])).status;
}

describe('a request line naming another host', () => {
  const rebound = () => `evil.test:${server.port}`;

  it.each([
    ['a path starting with //', () => `//${rebound()}/_console/api/incoming`],
    ['the absolute form', () => `http://${rebound()}/_console/api/incoming`],
  ])('cannot drive the console through %s', async (_case, target) => {
    expect(await rawStatus(target(), 'POST', rebound())).not.toBe(201);
    expect(consoleWorldOf(sandbox).calls.all()).toEqual([]);
  });

  it('cannot read the event stream (bodies and signatures) through a path starting with //', async () => {
    expect(await rawStatus(`//${rebound()}/_console/events`, 'GET', rebound())).not.toBe(200);
  });

  it('still reaches the console with the sandbox’s own host, in origin and absolute form', async () => {
    const own = `127.0.0.1:${server.port}`;
    expect(await rawStatus('/_console/', 'GET', own)).toBe(200);
    expect(await rawStatus(`http://${own}/_console/`, 'GET', own)).toBe(200);
  });
});
