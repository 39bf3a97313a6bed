/**
 * What the sandbox keeps of each attempt's answer, against real sockets on 127.0.0.1: the
 * receiver's status, headers and the first 4 KiB of its body, the wall-clock latency, and when no
 * answer came, why: nothing listening (refused), no answer in time (timed out), or the
 * connection dropped (reset).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, type Delivery } from 'telephony-sdk/testing';
import { afterEach, expect, it } from 'vitest';
import { registerWebhook } from '../unit/testing/helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function receiver(handle: Parameters<typeof createServer>[1] & {}): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

/** A port nothing listens on: one a server had, closed again. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/hooks`;
}

/** Registers `url` through the API, sends one call.incoming and answers its first attempt. */
async function firstAttempt(url: string, deliveryTimeout = 5_000): Promise<Delivery> {
  const sandbox = createSandbox({ deliveryTimeout });
  await registerWebhook(sandbox, { url, events: ['call.incoming'] });
  sandbox.simulateIncomingCall({ from: '+15557654321' });
  await sandbox.idle();
  expect(sandbox.deliveries).toHaveLength(1);
  return sandbox.deliveries[0] as Delivery;
}

it('keeps the status, headers and the first 4 KiB of the body of an answer, and its latency', async () => {
  const long = `${'x'.repeat(5000)}END`;
  const url = await receiver((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(500, { 'content-type': 'text/plain', 'x-request-id': 'r-1' }).end(`boom ${long}`);
    });
  });
  const delivery = await firstAttempt(url);
  expect(delivery.status).toBe(500);
  expect(delivery.noAnswer).toBeNull();
  expect(delivery.response?.headers).toMatchObject({ 'content-type': 'text/plain', 'x-request-id': 'r-1' });
  expect(delivery.response?.body).toBe(`boom ${long}`.slice(0, 4096));
  expect(delivery.response?.truncated).toBe(true);
  expect(delivery.latencyMs).toBeGreaterThanOrEqual(0);
  expect(delivery.latencyMs).toBeLessThan(5_000);
});

it('tells apart a refused connection, a time-out and a reset', async () => {
  const refused = await firstAttempt(await closedPort());
  const silent = await receiver((req) => {
    req.resume();
  });
  const timedOut = await firstAttempt(silent, 200);
  const dropping = await receiver((req) => {
    req.resume().on('end', () => req.socket.destroy());
  });
  const reset = await firstAttempt(dropping);
  expect([refused, timedOut, reset].map((d) => [d.status, d.response, d.noAnswer?.cause])).toEqual([
    [null, null, 'refused'],
    [null, null, 'timed out'],
    [null, null, 'reset'],
  ]);
  expect(timedOut.noAnswer?.message).toBe('No answer within 200 ms');
  expect(timedOut.latencyMs).toBeGreaterThanOrEqual(150);
});
