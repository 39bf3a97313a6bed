import { describe, expect, it } from 'vitest';
import { rawSandbox } from './helpers.js';

async function ready() {
  const raw = rawSandbox();
  let token = (await raw.tokenFor()).access_token;
  const as = (method: string, path: string, body?: unknown) => raw.send(method, path, token, body);
  /** Tokens live 3600 s; tests that jump a day take a new one. */
  const renew = async () => {
    token = (await raw.tokenFor()).access_token;
  };
  return { ...raw, as, renew };
}

describe('POST /v2/calls', () => {
  it('answers at once with the creation form, status initiating, custom_data as sent', async () => {
    const { as } = await ready();
    const { status, body } = await as('POST', '/v2/calls', {
      to: '+15551234567',
      custom_data: { order: 42 },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'success',
      data: {
        call: {
          id: expect.any(String),
          status: 'initiating',
          direction: 'outbound',
          from: { number: '+15550100000', name: expect.any(String) },
          to: { number: '+15551234567', name: expect.any(String) },
          timestamp: '2025-01-15T09:00:00.000Z',
          custom_data: { order: 42 },
        },
      },
    });
  });

  it('moves ringing at 1 s, answered at 5 s, completed at 35 s with a 30 s duration', async () => {
    const { sandbox, as } = await ready();
    const id = (await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id;
    const statusAfter = async (ms: number) => {
      await sandbox.advance(ms);
      return (await as('GET', `/v2/calls/${id}`)).body.data.call;
    };
    expect((await statusAfter(999)).status).toBe('initiating');
    expect((await statusAfter(1)).status).toBe('ringing');
    expect((await statusAfter(4_000)).status).toBe('answered');
    const done = await statusAfter(30_000);
    expect(done).toMatchObject({ status: 'completed', duration: 30, ended_at: '2025-01-15T09:00:35.000Z' });
  });

  it.each<[Record<string, unknown>, string]>([
    [{}, 'missing to'],
    [{ to: '5551234567' }, 'non-E.164 to'],
    [{ to: '+15551234567', from: '+15559999999' }, 'a from that is not the account number'],
    [{ to: '+15551234567', record: 'yes' }, 'a non-boolean record'],
    [{ to: '+15551234567', custom_data: [1] }, 'a non-object custom_data'],
    [{ to: '+15551234567', callback_url: 'https://example.com/cb' }, 'a non-loopback callback_url'],
    [{ to: '+15551234567', colour: 'red' }, 'an unknown field'],
  ])('refuses %j (%s) with 400 invalid_parameter', async (body, _why) => {
    const { as } = await ready();
    const response = await as('POST', '/v2/calls', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 'error',
      code: 'invalid_parameter',
      message: expect.any(String),
    });
  });
});

describe('DELETE /v2/calls/{id} and transfer', () => {
  it('ends a call in progress with ended_at; ending it again is 400', async () => {
    const { sandbox, as } = await ready();
    const id = (await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id;
    await sandbox.advance(2_000);
    const ended = await as('DELETE', `/v2/calls/${id}`);
    expect(ended.body.data.call).toEqual({ id, status: 'ended', ended_at: '2025-01-15T09:00:02.000Z' });
    await sandbox.advance(60_000);
    expect((await as('GET', `/v2/calls/${id}`)).body.data.call.status).toBe('ended');
    expect((await as('DELETE', `/v2/calls/${id}`)).body.code).toBe('invalid_parameter');
  });

  it('transfer moves to transferring, then answered with transfer_history', async () => {
    const { sandbox, as } = await ready();
    const id = (await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id;
    await sandbox.advance(5_000);
    const moved = await as('POST', `/v2/calls/${id}/transfer`, { to: 'usr_7', type: 'attended' });
    expect(moved.body.data.call).toEqual({
      id,
      status: 'transferring',
      transfer_to: 'usr_7',
      transfer_type: 'attended',
    });
    await sandbox.advance(2_000);
    const detail = (await as('GET', `/v2/calls/${id}`)).body.data.call;
    expect(detail).toMatchObject({ status: 'answered', transferred: true });
    expect(detail.transfer_history).toEqual([
      { to: 'usr_7', type: 'attended', at: '2025-01-15T09:00:05.000Z' },
    ]);
  });

  it('transfer type defaults to blind and rejects other values', async () => {
    const { as } = await ready();
    const id = (await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id;
    expect((await as('POST', `/v2/calls/${id}/transfer`, { to: '+15557654321', type: 'warm' })).status).toBe(
      400,
    );
    expect(
      (await as('POST', `/v2/calls/${id}/transfer`, { to: '+15557654321' })).body.data.call.transfer_type,
    ).toBe('blind');
  });

  it('unknown ids are 404 not_found', async () => {
    const { as } = await ready();
    for (const [method, path] of [
      ['GET', '/v2/calls/call_nope'],
      ['DELETE', '/v2/calls/call_nope'],
      ['POST', '/v2/calls/call_nope/transfer'],
    ] as const) {
      const response = await as(method, path, method === 'POST' ? { to: '+15551234567' } : undefined);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
  });
});

describe('GET /v2/calls/recent', () => {
  it('newest first, offset pagination inside data, across pages', async () => {
    const { sandbox, as } = await ready();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id);
      await sandbox.advance(1_000);
    }
    const first = await as('GET', '/v2/calls/recent?limit=2');
    expect(first.body.data.calls.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data.pagination).toEqual({ total: 5, limit: 2, offset: 0, has_more: true });
    expect(first.body.pagination).toBeUndefined();
    const last = await as('GET', '/v2/calls/recent?limit=2&offset=4');
    expect(last.body.data.calls.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(last.body.data.pagination).toEqual({ total: 5, limit: 2, offset: 4, has_more: false });
  });

  it('accepts the fields parameter (value format not in the spec) and answers the full form', async () => {
    const { as } = await ready();
    await as('POST', '/v2/calls', { to: '+15551234567' });
    const plain = await as('GET', '/v2/calls/recent');
    const asked = await as('GET', '/v2/calls/recent?fields=id,status');
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual(plain.body);
  });

  it('list form has exactly the spec fields and defaults limit to 20', async () => {
    const { as } = await ready();
    await as('POST', '/v2/calls', { to: '+15551234567' });
    const { body } = await as('GET', '/v2/calls/recent');
    expect(Object.keys(body.data.calls[0]).sort()).toEqual([
      'direction',
      'duration',
      'from',
      'id',
      'notes',
      'recording_url',
      'status',
      'tags',
      'timestamp',
      'to',
    ]);
    expect(body.data.pagination.limit).toBe(20);
  });

  it('filters by direction, status, period and user_id', async () => {
    const { sandbox, as, renew } = await ready();
    await as('POST', '/v2/calls', { to: '+15551234567' });
    const inbound = sandbox.simulateIncomingCall({ from: '+15557654321', userId: 'usr_9' });
    sandbox.missCall(inbound.id);
    await sandbox.advance(86_400_000);
    await renew();
    await as('POST', '/v2/calls', { to: '+15551234568' });
    await sandbox.advance(10_000);
    const ids = async (query: string) =>
      (await as('GET', `/v2/calls/recent?${query}`)).body.data.calls.map((c: { id: string }) => c.id);
    expect(await ids('direction=inbound')).toEqual([inbound.id]);
    expect((await ids('direction=outbound')).length).toBe(2);
    expect(await ids('status=missed')).toEqual([inbound.id]);
    expect((await ids('status=answered')).length).toBe(2);
    expect((await ids('from=2025-01-15&to=2025-01-15')).length).toBe(2);
    expect((await ids('from=2025-01-16T00:00:00Z')).length).toBe(1);
    expect(await ids('user_id=usr_9')).toEqual([inbound.id]);
  });

  it.each([
    'limit=ten',
    'limit=101',
    'limit=0',
    'offset=-1',
    'direction=sideways',
    'status=completed',
    'from=yesterday',
    'from=2024-02-30',
    'to=2025-04-31T10:00:00Z',
  ])('refuses %s with 400 invalid_parameter', async (query) => {
    const { as } = await ready();
    const response = await as('GET', `/v2/calls/recent?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_parameter');
  });
});

describe('GET /v2/calls/stats', () => {
  it('needs from and to', async () => {
    const { as } = await ready();
    expect((await as('GET', '/v2/calls/stats?from=2025-01-01')).status).toBe(400);
  });

  it('computes totals and by_day from stored calls', async () => {
    const { sandbox, as, renew } = await ready();
    await as('POST', '/v2/calls', { to: '+15551234567' });
    await sandbox.advance(40_000);
    sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15557654321' }).id);
    await sandbox.advance(86_400_000);
    const voicemailless = sandbox.simulateIncomingCall({ from: '+15557654322' });
    sandbox.answerCall(voicemailless.id);
    await sandbox.advance(10_000);
    await renew();
    const { body } = await as('GET', '/v2/calls/stats?from=2025-01-01&to=2025-01-31&group_by=day');
    expect(body.data.stats).toEqual({
      total_calls: 3,
      total_duration: 40,
      average_duration: 40 / 3,
      inbound_calls: 2,
      outbound_calls: 1,
      answered_calls: 2,
      missed_calls: 1,
      voicemail_calls: 0,
      by_day: [
        { date: '2025-01-15', total_calls: 2, inbound_calls: 1, outbound_calls: 1, total_duration: 30 },
        { date: '2025-01-16', total_calls: 1, inbound_calls: 1, outbound_calls: 0, total_duration: 10 },
      ],
    });
  });

  it('by_week keyed by the Monday, by_month by YYYY-MM, none without an array', async () => {
    const { as } = await ready();
    await as('POST', '/v2/calls', { to: '+15551234567' });
    const q = '/v2/calls/stats?from=2025-01-01&to=2025-01-31';
    expect((await as('GET', `${q}&group_by=week`)).body.data.stats.by_week).toEqual([
      { week: '2025-01-13', total_calls: 1, inbound_calls: 0, outbound_calls: 1, total_duration: 0 },
    ]);
    expect((await as('GET', `${q}&group_by=month`)).body.data.stats.by_month[0].month).toBe('2025-01');
    const none = (await as('GET', q)).body.data.stats;
    expect(none.by_day).toBeUndefined();
    expect((await as('GET', `${q}&group_by=year`)).status).toBe(400);
  });
});

describe('incoming calls', () => {
  it('arrive ringing, then answer or miss', async () => {
    const { sandbox, as } = await ready();
    const call = sandbox.simulateIncomingCall({ from: '+15557654321', fromName: 'Ada' });
    expect(call).toMatchObject({ status: 'ringing', direction: 'inbound' });
    sandbox.answerCall(call.id);
    await sandbox.advance(12_000);
    expect((await as('GET', `/v2/calls/${call.id}`)).body.data.call).toMatchObject({
      status: 'answered',
      duration: 12,
    });
    expect(() => sandbox.missCall(call.id)).toThrow(/not ringing/);
  });
});

describe('detail form', () => {
  it('leaves unknown values out: an outbound call has no queue, links or ended_at until known', async () => {
    const { sandbox, as } = await ready();
    const id = (await as('POST', '/v2/calls', { to: '+15551234567', custom_data: { a: 1 } })).body.data.call
      .id;
    const live = (await as('GET', `/v2/calls/${id}`)).body.data.call;
    expect(Object.keys(live).sort()).toEqual([
      'custom_data',
      'direction',
      'duration',
      'from',
      'id',
      'notes',
      'recording_url',
      'status',
      'tags',
      'timestamp',
      'to',
      'transfer_history',
      'transferred',
    ]);
    expect(live.from).toEqual({ number: '+15550100000', name: expect.any(String) });
    expect(live.to).toEqual({ number: '+15551234567', name: '' });
    await sandbox.advance(35_000);
    expect((await as('GET', `/v2/calls/${id}`)).body.data.call.ended_at).toBe('2025-01-15T09:00:35.000Z');
  });

  it('an inbound call carries from.contact_id, to.user_id and its queue', async () => {
    const { sandbox, as } = await ready();
    const call = sandbox.simulateIncomingCall({
      from: '+15557654321',
      fromName: 'Ada',
      contactId: 'ct_1',
      userId: 'usr_2',
      toName: 'Support',
    });
    const detail = (await as('GET', `/v2/calls/${call.id}`)).body.data.call;
    expect(detail).toMatchObject({
      from: { number: '+15557654321', name: 'Ada', contact_id: 'ct_1' },
      to: { number: '+15550100000', name: 'Support', user_id: 'usr_2' },
      queue: { id: expect.any(String), name: expect.any(String), wait_time: 0 },
      transferred: false,
      transfer_history: [],
      custom_data: {},
    });
    expect(detail.ended_at).toBeUndefined();
  });
});

describe('recordings', () => {
  it('recording_url appears once a recorded call has ended; the recording itself is 404', async () => {
    const { sandbox, as } = await ready();
    const recorded = (await as('POST', '/v2/calls', { to: '+15551234567', record: true })).body.data.call.id;
    const plain = (await as('POST', '/v2/calls', { to: '+15551234568' })).body.data.call.id;
    await sandbox.advance(10_000);
    expect((await as('GET', `/v2/calls/${recorded}`)).body.data.call.recording_url).toBeNull();
    await as('DELETE', `/v2/calls/${recorded}`);
    await as('DELETE', `/v2/calls/${plain}`);
    const list = (await as('GET', '/v2/calls/recent')).body.data.calls;
    const url = (id: string) => list.find((c: { id: string }) => c.id === id).recording_url;
    expect(url(recorded)).toBe(`/v2/calls/${recorded}/recording`);
    expect(url(plain)).toBeNull();
    // 404 either way, saying why: the sandbox has no audio; a call made without record has none.
    const audio = await as('GET', `/v2/calls/${recorded}/recording`);
    expect([audio.status, audio.body.code, audio.body.message]).toEqual([
      404,
      'not_found',
      'The sandbox serves no recording audio',
    ]);
    expect((await as('GET', `/v2/calls/${plain}/recording`)).body.message).toBe(
      `Call ${plain} was not recorded (record: true)`,
    );
    expect((await as('GET', '/v2/calls/call_999999/recording')).body.message).toMatch(/call_999999/);
  });
});

describe('voicemail', () => {
  it('a ringing call sent to voicemail: status voicemail, duration 0, filtered and counted', async () => {
    const { sandbox, as } = await ready();
    const call = sandbox.simulateIncomingCall({ from: '+15557654321' });
    expect(sandbox.voicemailCall(call.id)).toMatchObject({ status: 'voicemail', duration: 0 });
    sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15557654322' }).id);
    const ids = async (query: string) =>
      (await as('GET', `/v2/calls/recent?${query}`)).body.data.calls.map((c: { id: string }) => c.id);
    expect(await ids('status=voicemail')).toEqual([call.id]);
    expect(await ids('status=missed')).not.toContain(call.id);
    const stats = (await as('GET', '/v2/calls/stats?from=2025-01-15&to=2025-01-15')).body.data.stats;
    expect(stats).toMatchObject({ total_calls: 2, missed_calls: 1, voicemail_calls: 1, answered_calls: 0 });
    expect((await as('DELETE', `/v2/calls/${call.id}`)).body.code).toBe('invalid_parameter');
  });
});

describe('periods', () => {
  it('a date-time without a zone is UTC, whatever the machine time zone', async () => {
    const saved = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const { as } = await ready();
      await as('POST', '/v2/calls', { to: '+15551234567' });
      const count = async (query: string) =>
        (await as('GET', `/v2/calls/recent?${query}`)).body.data.calls.length;
      expect(await count('from=2025-01-15T09:00:00')).toBe(1);
      expect(await count('from=2025-01-15T09:00:01')).toBe(0);
      expect(await count('to=2025-01-15T08:59')).toBe(0);
      expect(await count('from=2025-01-15T10:00:00%2B01:00')).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

describe('edge cases of ids, stats and transfers', () => {
  it('a malformed percent-escape in an id is 404 not_found, not a server error', async () => {
    const { as } = await ready();
    const response = await as('GET', '/v2/calls/%E0%A4%A');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ status: 'error', code: 'not_found', message: expect.any(String) });
  });

  it('stats of an empty period: zeros, average_duration 0, by_day empty', async () => {
    const { as } = await ready();
    const { body } = await as('GET', '/v2/calls/stats?from=2025-01-01&to=2025-01-31&group_by=day');
    expect(body.data.stats).toEqual({
      total_calls: 0,
      total_duration: 0,
      average_duration: 0,
      inbound_calls: 0,
      outbound_calls: 0,
      answered_calls: 0,
      missed_calls: 0,
      voicemail_calls: 0,
      by_day: [],
    });
  });

  it('stats user_id is for administrators only and filters by user', async () => {
    const { sandbox, as } = await ready();
    sandbox.simulateIncomingCall({ from: '+15557654321', userId: 'usr_9' });
    sandbox.simulateIncomingCall({ from: '+15557654322' });
    const q = '/v2/calls/stats?from=2025-01-15&to=2025-01-15';
    expect((await as('GET', `${q}&user_id=usr_9`)).body.data.stats.total_calls).toBe(1);
    const raw = rawSandbox({ clients: [{ clientId: 'app', clientSecret: 's', admin: false }] });
    const { access_token } = await raw.tokenFor({ client_id: 'app', client_secret: 's' });
    expect((await raw.send('GET', `${q}&user_id=usr_9`, access_token)).status).toBe(403);
  });

  it('refuses a transfer of a finished call, of one already transferring, and to a non-loopback callback_url', async () => {
    const { sandbox, as } = await ready();
    const id = (await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id;
    await sandbox.advance(5_000);
    const external = await as('POST', `/v2/calls/${id}/transfer`, {
      to: '+15557654321',
      callback_url: 'https://example.com/cb',
    });
    expect(external.status).toBe(400);
    expect((await as('POST', `/v2/calls/${id}/transfer`, { to: '+15557654321' })).status).toBe(200);
    expect((await as('POST', `/v2/calls/${id}/transfer`, { to: '+15557654322' })).body.code).toBe(
      'invalid_parameter',
    );
    await sandbox.advance(2_000);
    await as('DELETE', `/v2/calls/${id}`);
    expect((await as('POST', `/v2/calls/${id}/transfer`, { to: '+15557654321' })).status).toBe(400);
    expect((await as('GET', `/v2/calls/${id}`)).body.data.call.transfer_history).toHaveLength(1);
  });
});
