import { TelephonyClient } from 'telephony-sdk';
import {
  createSandbox,
  type ListeningSandbox,
  type Sandbox,
  type SandboxOptions,
} from 'telephony-sdk/testing';
import { afterEach } from 'vitest';

const servers: ListeningSandbox[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type ClientOptions = ConstructorParameters<typeof TelephonyClient>[0];

/**
 * A sandbox served over real HTTP on 127.0.0.1 and a client factory whose clock IS the sandbox
 * clock: when the SDK waits (Retry-After, backoff), sandbox time moves by exactly that much and
 * nothing really sleeps. `waits` records every wait the SDK asked for.
 */
export async function serveSandbox(options: SandboxOptions = {}) {
  const sandbox: Sandbox = createSandbox(options);
  const server = await sandbox.listen();
  servers.push(server);
  const waits: number[] = [];
  const clock = {
    now: () => sandbox.clock.now(),
    sleep: async (ms: number) => {
      waits.push(ms);
      await sandbox.advance(ms);
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
