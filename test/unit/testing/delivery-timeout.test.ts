import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSandbox } from 'telephony-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { rawSandbox } from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver on 127.0.0.1 that never answers while `silent`, and answers 200 once it is not. */
async function silentReceiver() {
  const held: ServerResponse<IncomingMessage>[] = [];
  const state = { silent: true };
  const server = createServer((req, res) => {
    req.resume();
    if (state.silent) held.push(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/hooks`, held, state };
}

async function subscribedSandbox(url: string, deliveryTimeout: number, deliveryFetch?: typeof fetch) {
  const raw = rawSandbox({ deliveryTimeout, ...(deliveryFetch ? { deliveryFetch } : {}) });
  const { access_token } = await raw.tokenFor();
  await raw.send('POST', '/v2/webhooks', access_token, { url, events: ['call.incoming'] });
  return raw.sandbox;
}

describe('delivery timeout', () => {
  // The one real wait here: a socket that never answers, for the 300 ms timeout given (wall clock:
  // the manual sandbox clock does not move while the sandbox waits for an answer).
  it('a receiver that never answers does not hold idle() or advance(): no answer, re-delivered on schedule', async () => {
    const receiver = await silentReceiver();
    const sandbox = await subscribedSandbox(receiver.url, 300);
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.idle();
    expect(sandbox.deliveries.map((d) => [d.attempt, d.status])).toEqual([[1, null]]);
    receiver.state.silent = false;
    await sandbox.advance(10_000);
    expect(sandbox.deliveries.map((d) => [d.attempt, d.status])).toEqual([
      [1, null],
      [2, 200],
    ]);
    expect(sandbox.deliveries[1]?.at).toBe((sandbox.deliveries[0]?.at ?? 0) + 10_000);
    // The attempt was aborted, not left open on the receiver.
    expect(receiver.held.every((res) => res.destroyed)).toBe(true);
  }, 5_000);

  it('bounds an injected deliveryFetch that ignores its signal too, and hands it the signal', async () => {
    const signals: (AbortSignal | null | undefined)[] = [];
    const hanging = (_input: RequestInfo | URL, init?: RequestInit) => {
      signals.push(init?.signal);
      return new Promise<Response>(() => {});
    };
    const sandbox = await subscribedSandbox('http://127.0.0.1:9/h', 20, hanging);
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.advance(10_000);
    expect(sandbox.deliveries.map((d) => [d.attempt, d.status])).toEqual([
      [1, null],
      [2, null],
    ]);
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
  }, 5_000);

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses deliveryTimeout %s', (deliveryTimeout) => {
    expect(() => createSandbox({ deliveryTimeout })).toThrow(/deliveryTimeout must be a positive number/);
  });
});
