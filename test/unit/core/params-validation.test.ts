import { ResponseValidationError, ValidationError } from 'telephony-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parseResponse } from '../../../src/core/response/guard.js';
import { recentCallsBody } from '../../fixtures/calls.js';
import { BASE, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';
import { route, seen } from '../resources/route.js';

beforeEach(() => server.use(tokenHandler()));

const ISO_ERROR = 'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z';

describe('ISO 8601 offsets (RFC 3339 range: hours 00–23, minutes 00–59)', () => {
  it.each([
    '2024-01-31T09:00:00+99:99',
    '2024-01-31T09:00:00+24:00',
    '2024-01-31T09:00:00-25:00',
    '2024-01-31T09:00:00+05:60',
    '2024-01-31T09:00+0599',
    '2024-01-31T09:00:00+9:00',
  ])('refuses %s naming the field, sending nothing', async (from) => {
    const error = await testClient()
      .calls.listRecent({ from })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: 'from', message: ISO_ERROR }]);
    expect(seen).toHaveLength(0);
  });

  it.each([
    '2024-01-31T09:00:00+23:59',
    '2024-01-31T09:00:00-12:00',
    '2024-01-31T09:00:00+14:00',
    '2024-01-31T09:00:00-00:00',
    '2024-01-31T09:00+0530',
    '2024-01-31T09:00:00.123Z',
  ])('sends %s as given', async (from) => {
    route('get', `${BASE}/v2/calls/recent`, () =>
      recentCallsBody([], { total: 0, limit: 20, offset: 0, has_more: false }),
    );
    await testClient().calls.listRecent({ from });
    expect(seen).toHaveLength(1);
    expect(new URLSearchParams(seen[0]?.query).get('from')).toBe(from);
  });
});

describe('echoed input is capped in error messages', () => {
  const huge = 'k'.repeat(5_000_000);

  it('an unknown 5 MB param name', async () => {
    const error = await testClient()
      .calls.listRecent({ [huge]: 1 } as never)
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    const { message, issues } = error as ValidationError;
    expect(message.length).toBeLessThan(300);
    expect(message).toContain(`${'k'.repeat(40)}… is not a known parameter`);
    expect(issues).toEqual([{ path: `${'k'.repeat(40)}…`, message: 'is not a known parameter' }]);
    expect(seen).toHaveLength(0);
  });

  it('a long id in the operation of a ValidationError about params', async () => {
    const id = 'c'.repeat(100_000);
    const error = await testClient()
      .calls.transfer(id, { to: '' })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    const { message } = error as ValidationError;
    expect(message.length).toBeLessThan(300);
    expect(message).toMatch(
      /^POST \/v2\/calls\/c+…: invalid params: to must be a phone number or a user id$/,
    );
    expect(seen).toHaveLength(0);
  });

  it('a long id in the operation of a ResponseValidationError', async () => {
    const id = 'c'.repeat(100_000);
    route('get', `${BASE}/v2/calls/:id`, () => ({ status: 'success', data: { call: { id: 1 } } }));
    const error = await testClient()
      .calls.get(id)
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { message } = error as ResponseValidationError;
    expect(message.length).toBeLessThan(300);
    expect(message).toMatch(/^GET \/v2\/calls\/c+…: data\.call\.id: expected string, got number$/);
  });

  it('a 5 MB key of a response record', () => {
    const schema = z.looseObject({ counts: z.record(z.string(), z.number()) });
    let error: unknown;
    try {
      parseResponse(schema, { counts: { [huge]: 'x' } }, 'GET /v2/x');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { message, issues } = error as ResponseValidationError;
    expect(message.length).toBeLessThan(300);
    expect(issues).toEqual([
      { path: `data.counts.${'k'.repeat(40)}…`, message: expect.stringMatching(/^expected number/) },
    ]);
  });
});
