import { type CallStatus, type LegacyCall, ValidationError } from 'telephony-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BASE_V1, CANARY, testClient } from '../../helpers/client.js';
import { route, seen } from './route.js';

/** SPEC.md's short form: from and to as plain numbers. */
const shortCall = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  from: '+15551230000',
  to: '+15557650000',
  status: 'completed',
  ...extra,
});
const pagination = (page: number, pages: number) => ({ total: pages * 2, page, per_page: 2, pages });

describe('legacyCalls.list (GET /v1/calls, API key)', () => {
  it('sends page, per_page, status, date_from and date_to with the API key to baseUrlV1', async () => {
    route('get', `${BASE_V1}/v1/calls`, () => ({
      status: 'success',
      data: { calls: [shortCall('c1')], pagination: pagination(1, 1) },
    }));
    const page = await testClient().legacyCalls.list({
      page: 1,
      per_page: 2,
      status: 'completed',
      date_from: new Date('2024-03-01T00:00:00Z'),
      date_to: '2024-03-31',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.query).toBe(
      'page=1&per_page=2&status=completed&date_from=2024-03-01T00%3A00%3A00.000Z&date_to=2024-03-31',
    );
    expect(seen[0]?.authorization).toBe(`Bearer ${CANARY.apiKey}`);
    expect(page.items).toEqual([shortCall('c1')]);
    expect(page.pagination).toEqual(pagination(1, 1));
    expectTypeOf(page.items).toEqualTypeOf<LegacyCall[]>();
    expectTypeOf<LegacyCall['from']>().toEqualTypeOf<string>();
    expectTypeOf<LegacyCall['status']>().toEqualTypeOf<CallStatus>();
  });

  it('reads the page-style pagination inside data or beside it, and walks every page', async () => {
    route('get', `${BASE_V1}/v1/calls`, ({ query }) => {
      const page = Number(new URLSearchParams(query).get('page') ?? 1);
      const calls = [shortCall(`c${page}a`), shortCall(`c${page}b`)];
      // Page 1 answers it inside data (SPEC.md's short calls example), the others beside it (the users list).
      return page === 1
        ? { status: 'success', data: { calls, pagination: pagination(page, 3) } }
        : { status: 'success', data: { calls }, pagination: pagination(page, 3) };
    });
    const ids: string[] = [];
    for await (const call of testClient().legacyCalls.list({ per_page: 2 })) ids.push(call.id);
    expect(ids).toEqual(['c1a', 'c1b', 'c2a', 'c2b', 'c3a', 'c3b']);
    expect(seen.map((request) => request.query)).toEqual([
      'per_page=2',
      'per_page=2&page=2',
      'per_page=2&page=3',
    ]);
  });

  it('keeps every field beyond id, from, to and status, as sent', async () => {
    const extra = { duration: 42, direction: 'inbound', recorded: { at: 'x' } };
    route('get', `${BASE_V1}/v1/calls`, () => ({
      status: 'success',
      data: { calls: [shortCall('c1', extra)], pagination: pagination(1, 1) },
    }));
    const [call] = (await testClient().legacyCalls.list()).items;
    expect(call).toEqual(shortCall('c1', extra));
  });

  it('a call without one of id, from, to or status is a ResponseValidationError naming it', async () => {
    for (const field of ['id', 'from', 'to', 'status'] as const) {
      const { [field]: _, ...without } = shortCall('c1');
      route('get', `${BASE_V1}/v1/calls`, () => ({
        status: 'success',
        data: { calls: [without], pagination: pagination(1, 1) },
      }));
      await expect(testClient().legacyCalls.list()).rejects.toMatchObject({
        name: 'ResponseValidationError',
        message: `GET /v1/calls: data.calls.0.${field}: required field is missing`,
      });
    }
  });

  it('refuses page 0, per_page 0, an unknown status, a bad date and an unknown key, naming each, sending nothing', async () => {
    const error = await testClient()
      .legacyCalls.list({
        page: 0,
        per_page: 0,
        status: 'lost' as 'ended',
        date_from: '2024-02-30',
        limit: 5,
      } as never)
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path).sort()).toEqual([
      'date_from',
      'limit',
      'page',
      'per_page',
      'status',
    ]);
    expect(seen).toHaveLength(0);
  });

  it('refuses per_page 101 (SPEC.md, Limits: page-style lists take at most 100), sending nothing', async () => {
    await expect(testClient().legacyCalls.list({ per_page: 101 })).rejects.toMatchObject({
      issues: [{ path: 'per_page', message: 'must be ≤ 100' }],
    });
    expect(seen).toHaveLength(0);
  });
});
