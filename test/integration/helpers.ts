import { createServer, type Server } from 'node:http';
import { type Clock, TelephonyClient } from 'telephony-sdk';
import {
  createSandbox,
  type ListeningSandbox,
  type Sandbox,
  type SandboxOptions,
} from 'telephony-sdk/testing';
import type { WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach } from 'vitest';

const servers: ListeningSandbox[] = [];
const receivers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(receivers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Serves `receiver.nodeHandler` on 127.0.0.1 (closed after the test); resolves to its URL. */
export async function mountReceiver(receiver: WebhookReceiver, path = '/hooks'): Promise<string> {
  const server = createServer(receiver.nodeHandler);
  receivers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${path}`;
}

type ClientOptions = ConstructorParameters<typeof TelephonyClient>[0];

/**
 * A sandbox served over real HTTP on 127.0.0.1 and a client factory on `sandbox.clientClock`: when
 * the SDK waits (Retry-After, backoff), a manual sandbox clock moves by exactly that much and
 * nothing really sleeps. `waits` records every wait the SDK asked for.
 */
export async function serveSandbox(options: SandboxOptions = {}) {
  const sandbox: Sandbox = createSandbox(options);
  const server = await sandbox.listen();
  servers.push(server);
  const waits: number[] = [];
  const clock: Clock = {
    now: () => sandbox.clientClock.now(),
    sleep: (ms, signal) => {
      waits.push(ms);
      return sandbox.clientClock.sleep(ms, signal);
    },
  };
  const client = (extra: ClientOptions = {}) =>
    new TelephonyClient({
      baseUrl: server.url,
      baseUrlV1: server.url,
      ...sandbox.credentials,
      clock,
      ...extra,
    });
  return { sandbox, server, client, waits };
}
