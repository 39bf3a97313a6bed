import type { Tracer } from '@opentelemetry/api';
import { HttpResponse, http } from 'msw';
import { type APIPromise, TelephonyClient, type WithResponse } from 'telephony-sdk';
import { createSandbox, type Sandbox } from 'telephony-sdk/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BASE } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';
import { otel } from '../../helpers/tracing.js';

const TO = '+14155550123';
const RECORDING = `${BASE}/v2/calls/c1/recording`;

/** A client on a sandbox served by msw, and the ids of the calls whose answers it got. */
function sandboxClient(tracer?: Tracer) {
  const sandbox = createSandbox();
  server.use(...sandbox.mswHandlers(http, { baseUrl: BASE }));
  // The sandbox serves no audio: a recording route of its own, put before the sandbox's.
  server.use(
    http.get(RECORDING, () =>
      HttpResponse.arrayBuffer(new Uint8Array([1, 2, 3]).buffer, {
        headers: { 'content-type': 'audio/wav' },
      }),
    ),
  );
  const client = new TelephonyClient({
    baseUrl: BASE,
    baseUrlV1: BASE,
    ...sandbox.credentials,
    clock: sandbox.clientClock,
    ...(tracer && { tracer }),
  });
  /** Request id → status of each answer the client got. */
  const answered = new Map<string, number>();
  client.on('response', ({ requestId, status }) => answered.set(requestId, status));
  return { client, sandbox, answered };
}

type Client = TelephonyClient;

/** A method's promise, held in an object: an async step returning it bare would have it awaited. */
type Row = { call: APIPromise<unknown> };
const row = (call: APIPromise<unknown>): Row => ({ call });

/**
 * Every public method, each as a user calls it (an earlier step may make what it needs). The answer
 * `withResponse()` gives must be the call's own: its id is the one the `'response'` event carried.
 */
const methods: Record<string, (client: Client, sandbox: Sandbox) => Promise<Row>> = {
  'calls.listRecent': async (c) => row(c.calls.listRecent({ limit: 5 })),
  'calls.listRecent → getNextPage': async (c) => {
    await c.calls.create({ to: TO });
    await c.calls.create({ to: TO });
    return row((await c.calls.listRecent({ limit: 1 })).getNextPage());
  },
  'calls.get': async (c) => row(c.calls.get((await c.calls.create({ to: TO })).id)),
  'calls.create': async (c) => row(c.calls.create({ to: TO })),
  'calls.create with idempotencyKey': async (c) => row(c.calls.create({ to: TO }, { idempotencyKey: 'k-1' })),
  'calls.end': async (c) => row(c.calls.end((await c.calls.create({ to: TO })).id)),
  'calls.transfer': async (c, sandbox) => {
    const { id } = await c.calls.create({ to: TO });
    await sandbox.advance(5_000);
    return row(c.calls.transfer(id, { to: '+14155550199' }));
  },
  'calls.waitFor': async (c) => row(c.calls.waitFor((await c.calls.create({ to: TO })).id, 'completed')),
  'calls.findByIdempotencyKey (found)': async (c) => {
    await c.calls.create({ to: TO }, { idempotencyKey: 'k-2' });
    return row(c.calls.findByIdempotencyKey('k-2'));
  },
  'calls.findByIdempotencyKey (none)': async (c) => row(c.calls.findByIdempotencyKey('k-none')),
  'calls.downloadRecording': async (c) => row(c.calls.downloadRecording(RECORDING)),
  'stats.calls': async (c) => row(c.stats.calls({ from: '2024-01-01', to: '2024-12-31' })),
  'webhooks.create': async (c) =>
    row(c.webhooks.create({ url: 'http://127.0.0.1:9/hooks', events: ['call.ended'] })),
  'users.list': async (c) => row(c.users.list()),
  'users.get': async (c) => row(c.users.get((await c.users.create({ name: 'Ann', email: 'ann@x.test' })).id)),
  'users.create': async (c) => row(c.users.create({ name: 'Bob', email: 'bob@x.test' })),
  'users.update': async (c) =>
    row(c.users.update((await c.users.create({ name: 'Cy', email: 'cy@x.test' })).id, { name: 'Cyd' })),
  'users.delete': async (c) =>
    row(c.users.delete((await c.users.create({ name: 'Di', email: 'di@x.test' })).id)),
  'legacyCalls.list': async (c) => row(c.legacyCalls.list()),
  'client.request': async (c) => row(c.request({ method: 'GET', path: '/v2/calls/recent' })),
  'client.transport.send': async (c) => row(c.transport.send({ method: 'GET', path: '/v2/calls/recent' })),
  'client.transport.download': async (c) => row(c.transport.download({ method: 'GET', path: RECORDING })),
};

// Traced too: a traced method's promise is made by the tracing wrapper (core/tracing/trace-methods.ts).
describe.each([
  ['', undefined],
  [', traced', otel().tracer],
])('.withResponse() on every public method%s', (_, tracer) => {
  it.each(Object.keys(methods))(
    '%s: { data, response, requestId } of the answer that decided',
    async (name) => {
      const { client, sandbox, answered } = sandboxClient(tracer);
      const step = methods[name] as (client: Client, sandbox: Sandbox) => Promise<Row>;
      const { call: promise } = await step(client, sandbox);
      const { data, response, requestId } = await promise.withResponse();
      expect(response).toBeInstanceOf(Response);
      expect(response.ok).toBe(true);
      expect(answered.get(requestId)).toBe(response.status);
      // The promise itself resolves to `data`, not to the pair.
      expect(await promise).toBe(data);
      if (name !== 'calls.findByIdempotencyKey (none)') expect(data).toBeDefined();
    },
  );

  it('gives each call its own request id', async () => {
    const { client } = sandboxClient(tracer);
    const first = await client.calls.listRecent().withResponse();
    const second = await client.calls.listRecent().withResponse();
    expect(first.requestId).not.toBe(second.requestId);
  });
});

describe('.withResponse() types', () => {
  it('a download is typed as the Response it gives, with the request id', () => {
    type Download = ReturnType<TelephonyClient['calls']['downloadRecording']>;
    expectTypeOf<Download>().toEqualTypeOf<APIPromise<Response>>();
    expectTypeOf<ReturnType<Download['withResponse']>>().resolves.toEqualTypeOf<WithResponse<Response>>();
    expectTypeOf<ReturnType<TelephonyClient['transport']['download']>>().toEqualTypeOf<
      APIPromise<Response>
    >();
    expectTypeOf<WithResponse<unknown>['requestId']>().toEqualTypeOf<string>();
  });
});
