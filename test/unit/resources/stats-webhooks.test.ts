import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { statsBody } from '../../fixtures/calls.js';
import { BASE, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';
import { route, seen } from './route.js';

beforeEach(() => server.use(tokenHandler()));

describe('stats.calls', () => {
  it('sends from/to (Date as ISO) and group_by, and returns data.stats with by_day', async () => {
    route('get', `${BASE}/v2/calls/stats`, () => statsBody);
    const stats = await testClient().stats.calls({
      from: '2024-03-01',
      to: new Date('2024-03-31T23:59:59Z'),
      group_by: 'day',
    });
    expect(seen[0]?.query).toBe('from=2024-03-01&to=2024-03-31T23%3A59%3A59.000Z&group_by=day');
    expect(stats).toEqual(statsBody.data.stats);
    expect(stats.by_day?.[1]?.date).toBe('2024-03-02');
  });

  it('requires from and to, and a known group_by, sending nothing', async () => {
    await expect(
      testClient().stats.calls({ group_by: 'year' } as unknown as { from: string; to: string }),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [
        { path: 'from', message: 'is required' },
        { path: 'to', message: 'is required' },
        { path: 'group_by', message: 'must be one of "day", "week", "month", "none"' },
      ],
    });
    expect(seen).toHaveLength(0);
  });

  it('refuses from/to that are not real ISO 8601 dates, sending nothing', async () => {
    const message = 'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z';
    await expect(testClient().stats.calls({ from: 'last month', to: '2024-13-01' })).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [
        { path: 'from', message },
        { path: 'to', message },
      ],
    });
    await expect(testClient().stats.calls({ from: '2023-02-29', to: '2024-02-29' })).rejects.toMatchObject({
      issues: [{ path: 'from', message }],
    });
    expect(seen).toHaveLength(0);
  });

  it('keeps undocumented groupings (by_week) as extra fields', async () => {
    const stats = { ...statsBody.data.stats, by_day: undefined, by_week: [{ week: '2024-W09' }] };
    route('get', `${BASE}/v2/calls/stats`, () => ({ status: 'success', data: { stats } }));
    const result = await testClient().stats.calls({ from: '2024-03-01', to: '2024-03-31', group_by: 'week' });
    expect(result.by_week).toEqual([{ week: '2024-W09' }]);
  });
});

describe('webhooks.create', () => {
  it('POSTs url, events, secret, description and returns data as returned', async () => {
    const data = { webhook: { id: 'wh_1', url: 'https://example.com/hooks', events: ['call.incoming'] } };
    route('post', `${BASE}/v2/webhooks`, () => ({ status: 'success', data }));
    const result = await testClient().webhooks.create({
      url: 'https://example.com/hooks',
      events: ['call.incoming', 'call.ended'],
      secret: 'whsec_1',
      description: 'CRM',
    });
    expect(seen[0]?.body).toEqual({
      url: 'https://example.com/hooks',
      events: ['call.incoming', 'call.ended'],
      secret: 'whsec_1',
      description: 'CRM',
    });
    expect(result).toEqual(data);
    // Typed as the sandbox answers ({ webhook }) or with the fields at the top level; others kept.
    expectTypeOf(result.webhook?.id).toEqualTypeOf<string | undefined>();
    expectTypeOf(result.url).toEqualTypeOf<string | undefined>();
    expectTypeOf(result.anything_else).toEqualTypeOf<unknown>();
    expect(result.webhook?.events).toEqual(['call.incoming']);
  });

  it('resolves on any 2xx whatever the body: the webhook exists, and an error would invite a duplicate', async () => {
    const answers: Array<[() => Response, unknown]> = [
      [() => new HttpResponse(null, { status: 201 }), {}],
      [() => new HttpResponse(null, { status: 204 }), {}],
      [() => new HttpResponse('created', { status: 201 }), {}],
      [() => HttpResponse.json({ status: 'success' }, { status: 201 }), { status: 'success' }],
      [
        () => HttpResponse.json({ id: 'wh_1', url: 'https://example.com/hooks' }),
        { id: 'wh_1', url: 'https://example.com/hooks' },
      ],
      [() => HttpResponse.json([1]), {}],
    ];
    for (const [answer, expected] of answers) {
      let posts = 0;
      server.use(
        http.post(`${BASE}/v2/webhooks`, () => {
          posts++;
          return answer();
        }),
      );
      await expect(
        testClient().webhooks.create({ url: 'https://example.com/hooks', events: ['call.incoming'] }),
      ).resolves.toEqual(expected);
      expect(posts).toBe(1);
    }
  });

  it('a malformed token answer still rejects: nothing was created, so nothing resolves', async () => {
    let posts = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () => new HttpResponse('<html>login</html>', { status: 200 })),
      http.post(`${BASE}/v2/webhooks`, () => {
        posts++;
        return HttpResponse.json({ status: 'success', data: {} });
      }),
    );
    await expect(
      testClient().webhooks.create({ url: 'https://example.com/hooks', events: ['call.incoming'] }),
    ).rejects.toMatchObject({ name: expect.stringMatching(/Error$/) });
    expect(posts).toBe(0);
  });

  it('refuses a relative url and an empty events list', async () => {
    await expect(testClient().webhooks.create({ url: '/hooks', events: [] })).rejects.toMatchObject({
      issues: [
        { path: 'url', message: 'must be an absolute URL like https://example.com/hooks' },
        { path: 'events', message: 'must name at least one event type' },
      ],
    });
    expect(seen).toHaveLength(0);
  });
});
