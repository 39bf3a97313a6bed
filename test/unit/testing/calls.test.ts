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
