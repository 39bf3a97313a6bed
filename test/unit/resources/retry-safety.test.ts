import { delay, HttpResponse, http } from 'msw';
import {
  APIConnectionError,
  APITimeoutError,
  InternalServerError,
  type TelephonyClient,
} from 'telephony-sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createdCallBody,
  detailCall,
  endedCallBody,
  recentCallsBody,
  statsBody,
  transferredCallBody,
} from '../../fixtures/calls.js';
import { listUser, usersPageBody } from '../../fixtures/users.js';
import { BASE, BASE_V1, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

beforeEach(() => server.use(tokenHandler()));
afterEach(() => {
  vi.useRealTimers();
});

type Method = 'get' | 'post' | 'patch' | 'delete';

interface Endpoint {
  name: string;
  method: Method;
  url: string;
  success: Record<string, unknown>;
  call: (client: TelephonyClient) => Promise<unknown>;
}

/** The POSTs that create something: a repeat after a 5xx, a reset or a timeout could do it twice. */
const creating: Endpoint[] = [
  {
    name: 'calls.create (places a call)',
    method: 'post',
    url: `${BASE}/v2/calls`,
    success: createdCallBody,
    call: (client) => client.calls.create({ to: '+14155550123' }),
  },
  {
    name: 'calls.transfer',
    method: 'post',
    url: `${BASE}/v2/calls/call_1/transfer`,
    success: transferredCallBody,
    call: (client) => client.calls.transfer('call_1', { to: '+14155550199' }),
  },
  {
    name: 'users.create',
    method: 'post',
    url: `${BASE_V1}/v1/users`,
    success: { status: 'success', data: { user: listUser('u1', { status: 'pending' }) } },
    call: (client) => client.users.create({ name: 'Ann Lee', email: 'ann@example.com' }),
  },
  {
    name: 'webhooks.create',
    method: 'post',
    url: `${BASE}/v2/webhooks`,
    success: { status: 'success', data: { id: 'wh_1' } },
    call: (client) => client.webhooks.create({ url: 'https://example.com/hooks', events: ['call.ended'] }),
  },
];

/** Reads, updates and deletes: repeating them cannot do anything twice. */
const repeatable: Endpoint[] = [
  {
    name: 'calls.listRecent',
    method: 'get',
    url: `${BASE}/v2/calls/recent`,
    success: recentCallsBody(['call_1'], { total: 1, limit: 20, offset: 0, has_more: false }),
    call: async (client) => client.calls.listRecent(),
  },
  {
    name: 'calls.get',
    method: 'get',
    url: `${BASE}/v2/calls/call_1`,
    success: { status: 'success', data: { call: detailCall('call_1') } },
    call: (client) => client.calls.get('call_1'),
  },
  {
    name: 'calls.end (DELETE)',
    method: 'delete',
    url: `${BASE}/v2/calls/call_1`,
    success: endedCallBody,
    call: (client) => client.calls.end('call_1'),
  },
  {
    name: 'stats.calls',
    method: 'get',
    url: `${BASE}/v2/calls/stats`,
    success: statsBody,
    call: (client) => client.stats.calls({ from: '2024-03-01', to: '2024-03-31' }),
  },
  {
    name: 'users.list',
    method: 'get',
    url: `${BASE_V1}/v1/users`,
    success: usersPageBody(['u1'], { total: 1, page: 1, per_page: 10, pages: 1 }),
    call: async (client) => client.users.list(),
  },
  {
    name: 'users.get',
    method: 'get',
    url: `${BASE_V1}/v1/users/u1`,
    success: { status: 'success', data: { user: listUser('u1') } },
    call: (client) => client.users.get('u1'),
  },
  {
    name: 'users.update (PATCH)',
    method: 'patch',
    url: `${BASE_V1}/v1/users/u1`,
    success: { status: 'success', data: { user: listUser('u1') } },
    call: (client) => client.users.update('u1', { status: 'inactive' }),
  },
  {
    name: 'users.delete (DELETE)',
    method: 'delete',
    url: `${BASE_V1}/v1/users/u1`,
    success: { status: 'success', data: { deleted: true, id: 'u1' } },
    call: (client) => client.users.delete('u1'),
  },
];

/** Answers `endpoint` with `answer(n)` for its n-th request (from 1); returns the request count. */
function serve(endpoint: Endpoint, answer: (n: number) => Response | Promise<Response>) {
  const counter = { hits: 0 };
  server.use(http[endpoint.method](endpoint.url, () => answer(++counter.hits)));
  return counter;
}

const failure = (status: number) =>
  HttpResponse.json({ status: 'error', code: `c${status}`, message: 'm' }, { status });

describe('POSTs that create things are never repeated after they may have reached the service', () => {
  // users.create looks a lost answer's user up by e-mail: here it finds none.
  beforeEach(() => {
    server.use(
      http.get(`${BASE_V1}/v1/users`, () =>
        HttpResponse.json({
          status: 'success',
          data: { users: [] },
          pagination: { total: 0, page: 1, per_page: 100, pages: 0 },
        }),
      ),
    );
  });

  it.each(creating)('$name: one request on a 500, 502, 503 or a reset connection', async (endpoint) => {
    const cases = [
      [() => failure(500), InternalServerError],
      [() => failure(502), InternalServerError],
      [() => failure(503), InternalServerError],
      [() => HttpResponse.error(), APIConnectionError],
    ] as const;
    for (const [answer, ErrorClass] of cases) {
      const counter = serve(endpoint, answer);
      const clock = fakeClock();
      expect(await rejection(endpoint.call(testClient({ clock })))).toBeInstanceOf(ErrorClass);
      expect(counter.hits).toBe(1);
      expect(clock.waits).toEqual([]);
    }
  });

  it.each(creating)('$name: one request when the attempt times out', async (endpoint) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const counter = serve(endpoint, async () => {
      await delay('infinite');
      return HttpResponse.json({});
    });
    const pending = rejection(endpoint.call(testClient()));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await pending).toBeInstanceOf(APITimeoutError);
    expect(counter.hits).toBe(1);
  });

  it.each(creating)('$name: repeated after a 429, the service having refused it', async (endpoint) => {
    const counter = serve(endpoint, (n) => (n === 1 ? failure(429) : HttpResponse.json(endpoint.success)));
    await expect(endpoint.call(testClient())).resolves.toBeDefined();
    expect(counter.hits).toBe(2);
  });
});

describe('reads, updates and deletes are retried', () => {
  it.each(repeatable)('$name: after a 503 and a reset connection, then succeeds', async (endpoint) => {
    const counter = serve(endpoint, (n) =>
      n === 1 ? failure(503) : n === 2 ? HttpResponse.error() : HttpResponse.json(endpoint.success),
    );
    const clock = fakeClock();
    await expect(endpoint.call(testClient({ clock }))).resolves.toBeDefined();
    expect(counter.hits).toBe(3);
    expect(clock.waits).toHaveLength(2);
  });
});
