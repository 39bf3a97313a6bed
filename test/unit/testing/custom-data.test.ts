import { describe, expect, it } from 'vitest';
import { CUSTOM_DATA_MAX_BYTES, CUSTOM_DATA_MAX_DEPTH } from '../../../src/testing/validate.js';
import { rawSandbox } from './helpers.js';

/** A sandbox whose deliveries all answer 200, with a token and a webhook for every call event. */
async function ready() {
  const posted: string[] = [];
  const raw = rawSandbox({
    deliveryFetch: async (_url, init) => {
      posted.push(String(init?.body));
      return new Response(null, { status: 200 });
    },
  });
  const { access_token } = await raw.tokenFor();
  const as = (method: string, path: string, body?: unknown) => raw.send(method, path, access_token, body);
  const events = ['call.incoming', 'call.answered', 'call.ended'];
  expect((await as('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/hooks', events })).status).toBe(200);
  return { ...raw, as, posted, token: access_token };
}

/** `{ a: { a: … { leaf: 1 } } }`: `levels` objects, custom_data itself included. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

/** An object whose JSON takes exactly `bytes` bytes (UTF-8: the `é`s take two each). */
function sized(bytes: number): Record<string, unknown> {
  const shell = JSON.stringify({ pad: '', b: '' }).length;
  const twoByte = 100;
  return { pad: 'é'.repeat(twoByte), b: 'x'.repeat(bytes - shell - 2 * twoByte) };
}

const refusal = (message: string) => ({
  status: 400,
  body: { status: 'error', code: 'invalid_parameter', message },
});

describe('custom_data bounds (POST /v2/calls)', () => {
  it(`takes ${CUSTOM_DATA_MAX_DEPTH} levels and ${CUSTOM_DATA_MAX_BYTES} bytes, returned and delivered as sent`, async () => {
    const { sandbox, as, posted } = await ready();
    for (const custom_data of [nested(CUSTOM_DATA_MAX_DEPTH), sized(CUSTOM_DATA_MAX_BYTES)]) {
      const created = await as('POST', '/v2/calls', { to: '+15551234567', custom_data });
      expect([created.status, created.body.data.call.custom_data]).toEqual([200, custom_data]);
    }
    expect(new TextEncoder().encode(JSON.stringify(sized(CUSTOM_DATA_MAX_BYTES))).byteLength).toBe(
      CUSTOM_DATA_MAX_BYTES,
    );
    await sandbox.advance(40_000);
    expect(posted).toHaveLength(4); // answered and ended, for each call
    expect(JSON.parse(posted[0] ?? '').data.call.custom_data).toEqual(nested(CUSTOM_DATA_MAX_DEPTH));
  });

  it.each([
    [
      `${CUSTOM_DATA_MAX_DEPTH + 1} levels`,
      nested(CUSTOM_DATA_MAX_DEPTH + 1),
      'custom_data may nest at most 32 levels of objects and arrays',
    ],
    [
      'arrays nested as deep',
      { list: JSON.parse(`${'['.repeat(32)}1${']'.repeat(32)}`) },
      'custom_data may nest at most 32 levels of objects and arrays',
    ],
    [
      `${CUSTOM_DATA_MAX_BYTES + 1} bytes`,
      sized(CUSTOM_DATA_MAX_BYTES + 1),
      'custom_data may take at most 65536 bytes as JSON',
    ],
    ['an array', [1], 'custom_data must be an object'],
  ])(
    'refuses %s with 400 invalid_parameter; nothing is stored or sent',
    async (_case, custom_data, message) => {
      const { sandbox, as, posted } = await ready();
      expect(await as('POST', '/v2/calls', { to: '+15551234567', custom_data })).toMatchObject(
        refusal(message),
      );
      expect((await as('GET', '/v2/calls/recent')).body.data.pagination.total).toBe(0);
      await sandbox.advance(40_000);
      expect(posted).toEqual([]);
      // The next call takes the first id: the refused one used none.
      expect((await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id).toBe('call_000001');
    },
  );
});

describe('customData of simulateIncomingCall', () => {
  it('is held to the same bounds: it throws, and no call is stored or announced', async () => {
    const { sandbox, as, posted } = await ready();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const [customData, message] of [
      [nested(CUSTOM_DATA_MAX_DEPTH + 1), 'customData may nest at most 32 levels of objects and arrays'],
      [cyclic, 'customData may nest at most 32 levels of objects and arrays'],
      [{ n: 1n }, 'customData must be JSON data'],
      [sized(CUSTOM_DATA_MAX_BYTES + 1), 'customData may take at most 65536 bytes as JSON'],
    ] as const) {
      expect(() => sandbox.simulateIncomingCall({ from: '+15557654321', customData })).toThrow(message);
    }
    await sandbox.advance(40_000);
    expect(posted).toEqual([]);
    expect((await as('GET', '/v2/calls/recent')).body.data.pagination.total).toBe(0);
  });

  it('keeps the data as given: changing the object afterwards changes neither the call nor its events', async () => {
    const { sandbox, as, posted } = await ready();
    const customData: Record<string, unknown> = { ticket: 'T-1' };
    const call = sandbox.simulateIncomingCall({ from: '+15557654321', customData });
    customData.self = customData;
    customData.ticket = 'T-2';
    sandbox.answerCall(call.id);
    await sandbox.idle();
    expect((await as('GET', `/v2/calls/${call.id}`)).body.data.call.custom_data).toEqual({ ticket: 'T-1' });
    expect(posted.map((body) => JSON.parse(body).data.call.custom_data)).toEqual([
      { ticket: 'T-1' },
      { ticket: 'T-1' },
    ]);
  });
});
