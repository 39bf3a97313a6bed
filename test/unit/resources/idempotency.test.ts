import { HttpResponse, http } from 'msw';
import { TelephonyError, ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { createdCallBody, detailCall, listCall } from '../../fixtures/calls.js';
import { BASE, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { recentCallsHandler } from '../../helpers/recent-calls.js';
import { server } from '../../helpers/server.js';

const KEY = 'telephony_sdk_idempotency_key';

/** POST /v2/calls recording each body. */
function creates() {
  const bodies: unknown[] = [];
  server.use(
    tokenHandler(),
    http.post(`${BASE}/v2/calls`, async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(createdCallBody);
    }),
  );
  return bodies;
}

/**
 * `calls/recent` holding outbound calls `ids` (newest first), whose details carry `custom_data`
 * from `data` (by id); records list queries and detail reads.
 */
function placed(ids: string[], data: Record<string, Record<string, unknown>> = {}) {
  const lists: URLSearchParams[] = [];
  const details: string[] = [];
  server.use(
    tokenHandler(),
    recentCallsHandler(
      () => ids,
      (id) => listCall(id, { direction: 'outbound' }),
      { onRequest: (query) => lists.push(query) },
    ),
    http.get(`${BASE}/v2/calls/:id`, ({ params }) => {
      const id = String(params.id);
      details.push(id);
      return HttpResponse.json({
        status: 'success',
        data: { call: { ...detailCall(id), direction: 'outbound', custom_data: data[id] ?? {} } },
      });
    }),
  );
  return { lists, details };
}

describe('calls.create with an idempotencyKey', () => {
  it('stores the key in custom_data beside the caller’s own keys', async () => {
    const bodies = creates();
    await testClient().calls.create(
      { to: '+14155550123', custom_data: { crm_id: 'abc' } },
      { idempotencyKey: 'ticket-4711' },
    );
    expect(bodies).toEqual([{ to: '+14155550123', custom_data: { crm_id: 'abc', [KEY]: 'ticket-4711' } }]);
  });

  it('without a key, the body is sent as given', async () => {
    const bodies = creates();
    await testClient().calls.create({ to: '+14155550123' });
    expect(bodies).toEqual([{ to: '+14155550123' }]);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a line break', 'ticket\n4711'],
    ['not a string', 4711],
  ])('a key %s is a ValidationError naming idempotencyKey, and nothing is sent', async (_name, key) => {
    const bodies = creates();
    const error = await testClient()
      .calls.create({ to: '+14155550123' }, { idempotencyKey: key as string })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual(['idempotencyKey']);
    expect(bodies).toHaveLength(0);
  });

  it('takes 255 printable characters, Unicode included', async () => {
    const bodies = creates();
    const key = `ü${'k'.repeat(254)}`;
    await testClient().calls.create({ to: '+14155550123' }, { idempotencyKey: key });
    expect(bodies).toEqual([{ to: '+14155550123', custom_data: { [KEY]: key } }]);
  });

  it.each([
    ['with a key', { idempotencyKey: 'job-1' }],
    ['without one', {}],
  ])('a key of that name in the caller’s own custom_data is refused, %s', async (_name, options) => {
    const bodies = creates();
    const error = await testClient()
      .calls.create({ to: '+14155550123', custom_data: { [KEY]: 'mine' } }, options)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([`custom_data.${KEY}`]);
    expect(bodies).toHaveLength(0);
  });
});

describe('calls.findByIdempotencyKey', () => {
  it('walks outbound calls of the last 15 minutes and reads details until one holds the key', async () => {
    const clock = fakeClock();
    const look = placed(['call_3', 'call_2', 'call_1'], { call_2: { [KEY]: 'ticket-4711', crm: 1 } });
    const found = await testClient({ clock }).calls.findByIdempotencyKey('ticket-4711');
    expect(found).toMatchObject({ id: 'call_2', custom_data: { [KEY]: 'ticket-4711', crm: 1 } });
    expect(look.details).toEqual(['call_3', 'call_2']);
    expect(look.lists.map((query) => Object.fromEntries(query))).toEqual([
      { direction: 'outbound', from: new Date(clock.now() - 15 * 60_000).toISOString(), limit: '100' },
    ]);
  });

  it('resolves undefined when no call holds the key, having read each one once', async () => {
    const look = placed(['call_2', 'call_1'], { call_1: { [KEY]: 'other' } });
    await expect(testClient().calls.findByIdempotencyKey('ticket-4711')).resolves.toBeUndefined();
    expect(look.details).toEqual(['call_2', 'call_1']);
  });

  it('starts at since when given', async () => {
    const look = placed([]);
    await testClient().calls.findByIdempotencyKey('k', { since: '2025-01-15T08:00:00Z' });
    expect(look.lists[0]?.get('from')).toBe('2025-01-15T08:00:00Z');
  });

  it('reads at most 50 details, then rejects saying to narrow since', async () => {
    const look = placed(Array.from({ length: 120 }, (_, i) => `call_${i}`));
    const error = await testClient()
      .calls.findByIdempotencyKey('ticket-4711')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelephonyError);
    expect((error as Error).message).toBe(
      'calls.findByIdempotencyKey: 50 outbound calls read without the key, and older ones remain: pass a later since',
    );
    expect(look.details).toHaveLength(50);
  });

  it.each([
    ['an empty key', '', {}, 'key'],
    ['a bad since', 'k', { since: 'yesterday' }, 'since'],
  ])('%s is a ValidationError, nothing sent', async (_name, key, options, field) => {
    const look = placed(['call_1']);
    const error = await testClient()
      .calls.findByIdempotencyKey(key, options)
      .catch((caught: unknown) => caught);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([field]);
    expect(look.lists).toHaveLength(0);
  });
});
