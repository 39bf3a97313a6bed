import { HttpResponse, http } from 'msw';
import {
  type Call,
  type CallParty,
  type CallStatus,
  ResponseValidationError,
  ValidationError,
} from 'telephony-sdk';
import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createdCallBody,
  detailCall,
  endedCallBody,
  listCall,
  recentCallsBody,
  transferredCallBody,
} from '../../fixtures/calls.js';
import { BASE, CANARY, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';
import { route, seen } from './route.js';

beforeEach(() => server.use(tokenHandler()));

describe('calls.listRecent', () => {
  it('sends the filters as the spec names them (Date as ISO) and returns typed list-form calls', async () => {
    route('get', `${BASE}/v2/calls/recent`, () =>
      recentCallsBody(['call_1', 'call_2'], { total: 2, limit: 50, offset: 0, has_more: false }),
    );
    const page = await testClient().calls.listRecent({
      limit: 50,
      direction: 'inbound',
      status: 'missed',
      from: new Date('2024-03-01T00:00:00Z'),
      to: '2024-03-31',
      user_id: 'user_7',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.query).toBe(
      'limit=50&direction=inbound&status=missed&from=2024-03-01T00%3A00%3A00.000Z&to=2024-03-31&user_id=user_7',
    );
    expect(seen[0]?.authorization).toBe(`Bearer ${CANARY.accessToken}`);
    expect(page.items).toEqual([listCall('call_1'), listCall('call_2')]);
    // SPEC.md's list form: every listed field is there, typed so.
    expectTypeOf(page.items).toEqualTypeOf<Call[]>();
    expectTypeOf<Call['recording_url']>().toEqualTypeOf<string | null>();
    expectTypeOf<Call['direction']>().toEqualTypeOf<'inbound' | 'outbound' | (string & {})>();
    expectTypeOf<Call['duration']>().toEqualTypeOf<number>();
    expectTypeOf<Call['timestamp']>().toEqualTypeOf<string>();
    expectTypeOf<Call['status']>().toEqualTypeOf<CallStatus>();
  });

  it('walks three pages with exactly three requests and offset = offset + received', async () => {
    route('get', `${BASE}/v2/calls/recent`, ({ query }) => {
      const offset = Number(new URLSearchParams(query).get('offset') ?? 0);
      const idsOf = offset < 4 ? [`call_${offset}`, `call_${offset + 1}`] : [`call_${offset}`];
      return recentCallsBody(idsOf, { total: 5, limit: 2, offset, has_more: offset + idsOf.length < 5 });
    });
    const ids: string[] = [];
    for await (const call of testClient().calls.listRecent({ limit: 2, direction: 'outbound' }))
      ids.push(call.id);
    expect(ids).toEqual(['call_0', 'call_1', 'call_2', 'call_3', 'call_4']);
    expect(seen.map((request) => request.query)).toEqual([
      'limit=2&direction=outbound',
      'limit=2&direction=outbound&offset=2',
      'limit=2&direction=outbound&offset=4',
    ]);
  });

  it('refuses bad filters naming each field, sending nothing', async () => {
    let tokenRequests = 0;
    server.use(tokenHandler({ onRequest: () => tokenRequests++ }));
    const error = await testClient()
      .calls.listRecent({
        limit: 101,
        direction: 'sideways' as 'inbound',
        from: 'yesterday',
        // @ts-expect-error a typo is refused, not silently ignored
        statuss: 'missed',
      })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: 'limit', message: 'must be ≤ 100' },
      { path: 'direction', message: 'must be one of "inbound", "outbound", "all"' },
      { path: 'from', message: 'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z' },
      { path: 'statuss', message: 'is not a known parameter' },
    ]);
    expect(seen).toHaveLength(0);
    expect(tokenRequests).toBe(0);
  });

  it.each([
    [{ limit: 10.5 }, 'limit', 'expected int'],
    [{ limit: '20' as unknown as number }, 'limit', 'expected number'],
    [{ offset: -1 }, 'offset', 'must be ≥ 0'],
    [{ status: 'ended' as 'all' }, 'status', 'must be one of "answered", "missed", "voicemail", "all"'],
    [{ from: '2024-02-30' }, 'from', 'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z'],
    [
      { to: '2024-03-01T24:00:00Z' },
      'to',
      'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z',
    ],
    [
      { to: new Date('not a date') },
      'to',
      'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z',
    ],
  ])('refuses %o naming %s, sending nothing', async (params, field, message) => {
    const error = await testClient()
      .calls.listRecent(params)
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: field, message }]);
    expect(seen).toHaveLength(0);
  });
});

describe('calls.get / create / end / transfer', () => {
  it('get reads GET /v2/calls/{call_id} and returns data.call in detail form', async () => {
    route('get', `${BASE}/v2/calls/:id`, () => ({ status: 'success', data: { call: detailCall('call_9') } }));
    const call = await testClient().calls.get('call_9');
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v2/calls/call_9']);
    expect(call).toEqual(detailCall('call_9'));
    expectTypeOf(call.queue).toEqualTypeOf<
      { [k: string]: unknown; id: string; name: string; wait_time?: number | undefined } | null | undefined
    >();
  });

  it("encodes ids: 'a/b' stays one path segment; '..' is refused without sending", async () => {
    route('get', `${BASE}/v2/calls/:id`, () => ({ status: 'success', data: { call: detailCall('a/b') } }));
    await testClient().calls.get('a/b');
    expect(seen[0]?.path).toBe('/v2/calls/a%2Fb');
    await expect(testClient().calls.end('..')).rejects.toBeInstanceOf(ValidationError);
    // From JavaScript: the call object instead of its id rejects (no throw) and sends nothing.
    const wrong = testClient().calls.end({ id: 'call_1' } as unknown as string);
    await expect(wrong).rejects.toThrow('calls.end: callId must be a non-empty string (got object)');
    expect(seen).toHaveLength(1);
  });

  it('create POSTs the exact JSON body and returns the created call', async () => {
    route('post', `${BASE}/v2/calls`, () => createdCallBody);
    const created = await testClient().calls.create({
      to: '+14155550123',
      from: '+14155550100',
      record: true,
      callback_url: 'https://example.com/cb',
      custom_data: { crm_id: 'abc' },
    });
    expect(seen[0]?.body).toEqual({
      to: '+14155550123',
      from: '+14155550100',
      record: true,
      callback_url: 'https://example.com/cb',
      custom_data: { crm_id: 'abc' },
    });
    expect(created).toEqual(createdCallBody.data.call);
    expectTypeOf(created.status).toExtend<string>();
    // SPEC.md's creation form: from and to are { number, name }, always there.
    expectTypeOf(created.to).toEqualTypeOf<CallParty>();
    expect(created.to.number).toBe('+14155550123');
  });

  it('create refuses a non-E.164 `to` and a missing `to`, naming the field, sending nothing', async () => {
    const client = testClient();
    await expect(client.calls.create({ to: '0612345678' })).rejects.toMatchObject({
      issues: [{ path: 'to', message: 'must be an E.164 number like +14155550123' }],
    });
    await expect(client.calls.create({ to: '+14155550123', from: '555' })).rejects.toMatchObject({
      issues: [{ path: 'from', message: 'must be an E.164 number like +14155550123' }],
    });
    await expect(client.calls.create({} as { to: string })).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [{ path: 'to', message: 'is required' }],
    });
    expect(seen).toHaveLength(0);
  });

  it('a bad argument rejects the promise, never throws synchronously', () => {
    const client = testClient();
    const pending = client.calls.create(undefined as unknown as { to: string });
    expect(pending).toBeInstanceOf(Promise);
    return expect(pending).rejects.toBeInstanceOf(ValidationError);
  });

  it('end sends DELETE without a body and returns {id, status, ended_at}', async () => {
    route('delete', `${BASE}/v2/calls/:id`, () => endedCallBody);
    const ended = await testClient().calls.end('call_1');
    expect(seen).toEqual([
      expect.objectContaining({ method: 'DELETE', path: '/v2/calls/call_1', body: undefined }),
    ]);
    expect(ended).toEqual({ id: 'call_1', status: 'ended', ended_at: '2024-03-01T10:05:00Z' });
  });

  it('transfer POSTs {to, type, callback_url}; `to` may be a user id', async () => {
    route('post', `${BASE}/v2/calls/:id/transfer`, () => transferredCallBody);
    const moved = await testClient().calls.transfer('call_1', { to: 'user_9', type: 'attended' });
    expect(seen[0]).toMatchObject({
      path: '/v2/calls/call_1/transfer',
      body: { to: 'user_9', type: 'attended' },
    });
    expect(moved).toEqual({
      id: 'call_1',
      status: 'transferring',
      transfer_to: 'user_9',
      transfer_type: 'attended',
    });
    await expect(
      testClient().calls.transfer('call_1', { to: 'user_9', type: 'warm' as 'blind' }),
    ).rejects.toMatchObject({ issues: [{ path: 'type', message: 'must be one of "blind", "attended"' }] });
    expect(seen).toHaveLength(1);
  });
});

describe('lenient responses', () => {
  it('keeps extra fields and passes unknown enum values through', async () => {
    const call = listCall('call_1', { status: 'on_hold', sentiment: 'positive' });
    route('get', `${BASE}/v2/calls/recent`, () => ({
      status: 'success',
      data: { calls: [call], pagination: { total: 1, limit: 20, offset: 0, has_more: false, cursor: 'x' } },
      request_id: 'req_1',
    }));
    const page = await testClient().calls.listRecent();
    expect(page.items[0]).toEqual(call);
    expect(page.items[0]?.status).toBe('on_hold');
    expect(page.pagination).toEqual({ total: 1, limit: 20, offset: 0, has_more: false, cursor: 'x' });
  });

  it('a wrong type is a ResponseValidationError naming the field and the operation', async () => {
    const calls = [
      listCall('call_0'),
      listCall('call_1'),
      listCall('call_2'),
      listCall('call_3', { duration: '12' }),
    ];
    route('get', `${BASE}/v2/calls/recent`, () =>
      recentCallsBody([], { total: 4, limit: 20, offset: 0, has_more: false }),
    );
    server.use(
      http.get(`${BASE}/v2/calls/recent`, () =>
        HttpResponse.json({
          status: 'success',
          data: { calls, pagination: { total: 4, limit: 20, offset: 0, has_more: false } },
        }),
      ),
    );
    const error = await testClient()
      .calls.listRecent()
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toBe(
      'GET /v2/calls/recent: data.calls.3.duration: expected number, got string',
    );
    expect((error as ResponseValidationError).issues).toEqual([
      { path: 'data.calls.3.duration', message: 'expected number, got string' },
    ]);
  });

  describe("SPEC.md's list form is the only form of calls/recent", () => {
    const answer = (calls: unknown[]) =>
      route('get', `${BASE}/v2/calls/recent`, () => ({
        status: 'success',
        data: { calls, pagination: { total: calls.length, limit: 20, offset: 0, has_more: false } },
      }));

    it('a listed call missing a field the list form lists is a ResponseValidationError naming it', async () => {
      for (const field of [
        'direction',
        'duration',
        'recording_url',
        'timestamp',
        'status',
        'from',
      ] as const) {
        const { [field]: _, ...without } = listCall('call_2');
        answer([listCall('call_1'), without]);
        await expect(testClient().calls.listRecent()).rejects.toMatchObject({
          name: 'ResponseValidationError',
          message: `GET /v2/calls/recent: data.calls.1.${field}: required field is missing`,
        });
      }
    });

    it("refuses the short form's plain number strings (that form is legacyCalls.list's)", async () => {
      answer([{ ...listCall('call_1'), from: '+15551230000' }]);
      await expect(testClient().calls.listRecent()).rejects.toMatchObject({
        name: 'ResponseValidationError',
        message: expect.stringMatching(/^GET \/v2\/calls\/recent: data\.calls\.0\.from: /),
      });
    });
  });

  it('a missing documented field names it', async () => {
    const { id: _, ...withoutId } = detailCall('call_1');
    route('get', `${BASE}/v2/calls/:id`, () => ({ status: 'success', data: { call: withoutId } }));
    await expect(testClient().calls.get('call_1')).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: 'GET /v2/calls/call_1: data.call.id: required field is missing',
    });
  });

  it('a body without data is a ResponseValidationError', async () => {
    route('delete', `${BASE}/v2/calls/:id`, () => ({ status: 'success' }));
    await expect(testClient().calls.end('call_1')).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: 'DELETE /v2/calls/call_1: data: required field is missing',
    });
  });
});

describe('calls.downloadRecording', () => {
  it('streams the recording of a call with the bearer token', async () => {
    let authorization: string | null = null;
    server.use(
      http.get(`${BASE}/v2/calls/:id/recording`, ({ request }) => {
        authorization = request.headers.get('authorization');
        return new HttpResponse(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'audio/mpeg' } });
      }),
    );
    const response = await testClient().calls.downloadRecording(listCall('call_1'));
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(authorization).toBe(`Bearer ${CANARY.accessToken}`);
  });

  it('refuses a call without a recording, sending nothing', async () => {
    await expect(testClient().calls.downloadRecording({ recording_url: null })).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [{ path: 'recording_url' }],
    });
    expect(seen).toHaveLength(0);
  });
});
