import { HttpResponse, http } from 'msw';
import {
  APIConnectionError,
  BadRequestError,
  InternalServerError,
  ResponseValidationError,
  type TelephonyError,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { listCall } from '../../fixtures/calls.js';
import { listUser } from '../../fixtures/users.js';
import { BASE, BASE_V1, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { recentCallsHandler } from '../../helpers/recent-calls.js';
import { server } from '../../helpers/server.js';

const KEY = 'telephony_sdk_idempotency_key';
const failure = async (promise: Promise<unknown>) => (await rejection(promise)) as TelephonyError;

type Answer = 'lost' | 'malformed' | '500' | '400' | 'ok';

/**
 * A calls service whose `POST /v2/calls` places the call (unless `placed: false`) and then answers as
 * `answer` says: `lost` a network error after acting, `malformed` a 2xx without the documented call;
 * calls to the `thenPlaced` numbers are placed right after it (newer).
 * Lists and details serve the calls placed, newest first; every request is recorded.
 */
function callsService(
  answer: Answer,
  { placed = true, listFails = false, thenPlaced = [] as string[] } = {},
) {
  const calls: Array<{ id: string; to: string; custom_data: Record<string, unknown> }> = [];
  const requests: string[] = [];
  server.use(
    tokenHandler(),
    http.post(`${BASE}/v2/calls`, async ({ request }) => {
      requests.push('POST /v2/calls');
      const body = (await request.json()) as { to: string; custom_data?: Record<string, unknown> };
      const call = { id: `call_${calls.length + 1}`, to: body.to, custom_data: body.custom_data ?? {} };
      if (placed && answer !== '400') calls.unshift(call);
      for (const to of thenPlaced) calls.unshift({ id: `call_${calls.length + 1}`, to, custom_data: {} });
      if (answer === 'lost') return HttpResponse.error();
      if (answer === 'malformed') return HttpResponse.json({ status: 'success', data: { call: { id: 1 } } });
      if (answer === '500' || answer === '400') {
        const status = Number(answer);
        return HttpResponse.json({ status: 'error', code: `c${status}`, message: 'm' }, { status });
      }
      return HttpResponse.json({
        status: 'success',
        data: {
          call: {
            ...listCall(call.id),
            direction: 'outbound',
            status: 'initiating',
            custom_data: call.custom_data,
          },
        },
      });
    }),
    http.get(`${BASE}/v2/calls/recent`, () => {
      requests.push('GET /v2/calls/recent');
      if (listFails)
        return HttpResponse.json({ status: 'error', code: 'c400', message: 'no' }, { status: 400 });
    }),
    recentCallsHandler(
      () => calls,
      (call) => listCall(call.id, { direction: 'outbound', to: { number: call.to, name: '' } }),
    ),
    http.get(`${BASE}/v2/calls/:id`, ({ params }) => {
      requests.push('GET /v2/calls/{id}');
      const call = calls.find((c) => c.id === params.id);
      return HttpResponse.json({
        status: 'success',
        data: {
          call: {
            ...listCall(String(params.id)),
            direction: 'outbound',
            to: { number: call?.to, name: '' },
            status: 'ringing',
            custom_data: call?.custom_data,
          },
        },
      });
    }),
  );
  return { calls, requests };
}

describe('calls.create with a key whose answer is lost', () => {
  it.each([
    ['cut after the service placed it (a network error)', 'lost'],
    ['malformed (a 2xx without the documented call)', 'malformed'],
    ['a 500 to the POST', '500'],
  ] as const)(
    'an answer %s: the look-up finds the call and create resolves with it',
    async (_name, answer) => {
      const service = callsService(answer);
      // An earlier call to the same number: the newest is read first, and it is the one placed.
      service.calls.push({ id: 'call_0', to: '+14155550123', custom_data: {} });
      const call = await testClient().calls.create({ to: '+14155550123' }, { idempotencyKey: 'job-1' });
      expect(call).toMatchObject({ id: 'call_2', custom_data: { [KEY]: 'job-1' } });
      expect(service.calls).toHaveLength(2);
      expect(service.requests).toEqual(['POST /v2/calls', 'GET /v2/calls/recent', 'GET /v2/calls/{id}']);
    },
  );

  it('only calls to the same number are read', async () => {
    const service = callsService('lost', { thenPlaced: ['+14155550999', '+14155550998'] });
    const call = await testClient().calls.create({ to: '+14155550123' }, { idempotencyKey: 'job-1' });
    expect(call.id).toBe('call_1');
    expect(service.requests.filter((r) => r === 'GET /v2/calls/{id}')).toHaveLength(1);
  });

  it('not found: rejects with outcome unknown, the message naming findByIdempotencyKey', async () => {
    const service = callsService('lost', { placed: false });
    const error = await failure(
      testClient().calls.create({ to: '+14155550123' }, { idempotencyKey: 'job-1' }),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.outcome).toBe('unknown');
    expect(error.message).toMatch(/^POST \/v2\/calls: the service may have placed this call; /);
    expect(error.message).toMatch(
      /Check before retrying\. calls\.findByIdempotencyKey\("job-1"\) found no such call just now; a placed call shows within seconds, so ask again before placing it again\.$/,
    );
    expect(service.requests).toEqual(['POST /v2/calls', 'GET /v2/calls/recent']);
  });

  it('a look-up that fails: rejects with the create’s error, saying the look-up failed too', async () => {
    callsService('500', { listFails: true });
    const error = await failure(
      testClient().calls.create({ to: '+14155550123' }, { idempotencyKey: 'job-1' }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.outcome).toBe('unknown');
    expect(error.message).toMatch(
      / Looking the call up failed too \(GET \/v2\/calls\/recent → 400 c400: no\): ask calls\.findByIdempotencyKey\("job-1"\) before placing it again\.$/,
    );
  });

  it('a rejected create (4xx) is not looked up', async () => {
    const service = callsService('400');
    const error = await failure(
      testClient().calls.create({ to: '+14155550123' }, { idempotencyKey: 'job-1' }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.outcome).toBe('rejected');
    expect(service.requests).toEqual(['POST /v2/calls']);
  });

  it('without a key: no look-up, and the message says how to find out', async () => {
    const service = callsService('malformed');
    const error = await failure(testClient().calls.create({ to: '+14155550123' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.outcome).toBe('unknown');
    expect(error.message).toMatch(
      / To find out, look for it in calls\.listRecent\(\{ direction: 'outbound' \}\); a call placed with an idempotencyKey is found by calls\.findByIdempotencyKey\.$/,
    );
    expect(service.requests).toEqual(['POST /v2/calls']);
  });
});

describe('users.create whose answer is lost', () => {
  function usersService({ created }: { created: boolean }) {
    const requests: string[] = [];
    server.use(
      http.post(`${BASE_V1}/v1/users`, () => {
        requests.push('POST /v1/users');
        return HttpResponse.error();
      }),
      http.get(`${BASE_V1}/v1/users`, ({ request }) => {
        const search = new URL(request.url).searchParams.get('search');
        requests.push(`GET /v1/users?search=${search}`);
        // The search matches names too: another user whose name holds the address is passed over.
        const users = [listUser('u_2', { name: 'ann@example.com fan', email: 'fan@example.com' })];
        if (created) users.push(listUser('u_1', { email: 'Ann@Example.com' }));
        return HttpResponse.json({
          status: 'success',
          data: { users },
          pagination: { total: users.length, page: 1, per_page: 100, pages: 1 },
        });
      }),
    );
    return requests;
  }

  it('looks the user up by e-mail and resolves with it', async () => {
    const requests = usersService({ created: true });
    const user = await testClient().users.create({ name: 'Ann Lee', email: 'ann@example.com' });
    expect(user).toMatchObject({ id: 'u_1', email: 'Ann@Example.com' });
    expect(requests).toEqual(['POST /v1/users', 'GET /v1/users?search=ann@example.com']);
  });

  it('not found: rejects with outcome unknown, naming the look-up', async () => {
    usersService({ created: false });
    const error = await failure(testClient().users.create({ name: 'Ann Lee', email: 'ann@example.com' }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.outcome).toBe('unknown');
    expect(error.message).toMatch(
      / users\.list\(\{ search: "ann@example\.com" \}\) found no such user just now: ask it again before creating the user again\.$/,
    );
  });
});
