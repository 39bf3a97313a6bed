import { HttpResponse, http } from 'msw';
import { ValidationError } from 'telephony-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { createdCallBody } from '../../fixtures/calls.js';
import { BASE, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

let sent: unknown[] = [];
beforeEach(() => {
  sent = [];
  server.use(
    tokenHandler(),
    http.post(`${BASE}/v2/calls`, async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json(createdCallBody);
    }),
  );
});

const create = (custom_data: Record<string, unknown>) =>
  testClient().calls.create({ to: '+14155550123', custom_data });

describe('custom_data is sent as given, or refused before anything is sent (issue 18, item 11)', () => {
  it.each([
    [
      'NaN',
      { crm: { score: Number.NaN } },
      'custom_data.crm.score',
      'NaN is not JSON (it would be sent as null)',
    ],
    [
      'Infinity in an array',
      { tags: ['a', Number.POSITIVE_INFINITY] },
      'custom_data.tags.1',
      'Infinity is not JSON (it would be sent as null)',
    ],
    ['a function', { hook: () => 1 }, 'custom_data.hook', 'a function is not JSON'],
    ['a bigint', { id: 10n }, 'custom_data.id', 'a bigint is not JSON'],
    ['undefined in an array', { list: [undefined] }, 'custom_data.list.0', 'is required'],
  ])('%s → ValidationError naming the field', async (_, custom_data, path, message) => {
    const error = await rejection(create(custom_data));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as unknown as ValidationError).issues).toEqual([{ path, message }]);
    expect(sent).toEqual([]);
  });

  it('a cycle or nesting past 64 levels is refused, not a stack overflow', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < 10_000; i++) node = node.next = {};
    for (const value of [cyclic, deep]) {
      const error = await rejection(create(value));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toContain('nests deeper than 64 levels');
    }
    expect(sent).toEqual([]);
  });

  it('JSON data, a Date and undefined properties are sent as JSON.stringify sends them', async () => {
    await create({
      a: 1.5,
      b: 'x',
      c: [true, null],
      d: { e: new Date('2024-01-02T03:04:05Z') },
      f: undefined,
    });
    expect(sent).toEqual([
      {
        to: '+14155550123',
        custom_data: { a: 1.5, b: 'x', c: [true, null], d: { e: '2024-01-02T03:04:05.000Z' } },
      },
    ]);
  });
});

describe('headers that frame the request are refused before anything is sent (issue 18, item 11)', () => {
  it.each([
    'content-length',
    'Transfer-Encoding',
    'connection',
    'host',
    'expect',
    'keep-alive',
    'upgrade',
    'te',
    'trailer',
  ])('%s in a call’s headers or in defaultHeaders', async (name) => {
    const perCall = await rejection(
      testClient().calls.create({ to: '+14155550123' }, { headers: { [name]: '1' } }),
    );
    expect(perCall).toBeInstanceOf(ValidationError);
    expect((perCall as unknown as ValidationError).issues[0]?.path).toBe(`headers.${name}`);
    expect(() => testClient({ defaultHeaders: { [name]: '1' } })).toThrow(ValidationError);
    expect(sent).toEqual([]);
  });
});
