import type { Sandbox } from 'telephony-sdk/testing';
import { describe, expect, it } from 'vitest';
import { CONSOLE_RING_MS } from '../../../src/testing/console/actions.js';
import { consoleWorldOf } from '../../../src/testing/sandbox.js';
import { consoleOf, ORIGIN, readEvents } from './console-helpers.js';

const statusOf = (sandbox: Sandbox, id: string) => consoleWorldOf(sandbox).calls.get(id).status;

describe('the console page', () => {
  it('serves the page, its script and style under /_console/, and passes every other path on', async () => {
    const { handle, passedOn } = consoleOf();
    const bare = await handle(new Request(`${ORIGIN}/_console`));
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/_console/']);
    const page = await handle(new Request(`${ORIGIN}/_console/`));
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<script type="module" src="console.js"></script>');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    // Its own icon: the browser's /favicon.ico would land in the API as a 401 in the request log.
    expect(html).toContain('<link rel="icon" href="data:,">');
    // No other origin may frame it and have the developer click in it.
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const script = await handle(new Request(`${ORIGIN}/_console/console.js`));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain("new EventSource('events')");
    const style = await handle(new Request(`${ORIGIN}/_console/console.css`));
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await handle(new Request(`${ORIGIN}/_console/nothing`))).status).toBe(404);
    expect(passedOn).toEqual([]);
    expect(await (await handle(new Request(`${ORIGIN}/v2/calls/recent`))).text()).toBe('api');
    expect(await (await handle(new Request(`${ORIGIN}/_consoles`))).text()).toBe('api');
    expect(passedOn).toEqual(['/v2/calls/recent', '/_consoles']);
  });
});

describe('the console event stream', () => {
  it('sends a snapshot, then each record as it happens, with the stats after a call change', async () => {
    const { sandbox, handle } = consoleOf();
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    const response = await handle(new Request(`${ORIGIN}/_console/events`));
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no stream');
    const [snapshot] = await readEvents(reader, 1);
    expect(snapshot).toEqual({
      event: 'snapshot',
      data: expect.objectContaining({
        now: sandbox.clock.now(),
        manualClock: true,
        requests: [],
        deliveries: [],
        calls: [expect.objectContaining({ callId: 'call_000001', status: 'ringing' })],
        stats: [expect.objectContaining({ date: '2025-01-15', total_calls: 1, inbound_calls: 1 })],
      }),
    });

    sandbox.answerCall('call_000001');
    expect(await readEvents(reader, 2)).toEqual([
      {
        event: 'activity',
        data: {
          record: expect.objectContaining({
            kind: 'call',
            callId: 'call_000001',
            status: 'answered',
            previous: 'ringing',
          }),
          now: sandbox.clock.now(),
        },
      },
      { event: 'stats', data: [expect.objectContaining({ date: '2025-01-15', total_calls: 1 })] },
    ]);
    await reader.cancel();
  });
});

describe('the console actions', () => {
  it.each([
    ['answered', 'answered'],
    ['missed', 'missed'],
    ['voicemail', 'voicemail'],
  ] as const)('simulates an incoming call that rings, then is %s', async (outcome, status) => {
    const { sandbox, post } = consoleOf();
    const answer = await post('incoming', { from: '+15557654321', to: '+15550100009', outcome });
    expect(answer).toEqual({
      status: 201,
      body: { call: { id: 'call_000001', status: 'ringing', outcome } },
    });
    await sandbox.advance(CONSOLE_RING_MS - 1);
    expect(statusOf(sandbox, 'call_000001')).toBe('ringing');
    await sandbox.advance(1);
    expect(statusOf(sandbox, 'call_000001')).toBe(status);
  });

  it('refuses a bad incoming call, naming the field, and simulates nothing', async () => {
    const { sandbox, post } = consoleOf();
    expect(await post('incoming', { from: '555' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_parameter', message: 'from must be an E.164 number' },
    });
    expect(await post('incoming', { from: '+15557654321', outcome: 'busy' })).toMatchObject({
      status: 400,
      body: { message: 'outcome must be one of answered, missed, voicemail' },
    });
    expect(consoleWorldOf(sandbox).calls.all()).toEqual([]);
  });

  it('an outcome no longer applies to a call ended while it rings', async () => {
    const { sandbox, post } = consoleOf();
    await post('incoming', { from: '+15557654321' });
    expect(await post('calls/call_000001/end', {})).toMatchObject({
      status: 200,
      body: { data: { call: { id: 'call_000001', status: 'ended' } } },
    });
    await sandbox.advance(CONSOLE_RING_MS);
    expect(statusOf(sandbox, 'call_000001')).toBe('ended');
  });

  it('ends and transfers calls as the API does (same checks, same answers)', async () => {
    const { sandbox, post } = consoleOf();
    await post('incoming', { from: '+15557654321' });
    await sandbox.advance(CONSOLE_RING_MS);
    expect(await post('calls/call_000001/transfer', {})).toMatchObject({
      status: 400,
      body: { message: 'to is required' },
    });
    expect(await post('calls/call_000001/transfer', { to: '+15550100001' })).toMatchObject({
      status: 200,
      body: { data: { call: { id: 'call_000001', status: 'transferring', transfer_to: '+15550100001' } } },
    });
    expect(await post('calls/call_404/end', {})).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('advances a manual clock and refuses to move a real-time one', async () => {
    const { sandbox, post } = consoleOf();
    const before = sandbox.clock.now();
    expect(await post('advance', { ms: 5_000 })).toEqual({ status: 200, body: { now: before + 5_000 } });
    expect(await post('advance', { ms: -1 })).toMatchObject({
      status: 400,
      body: { message: /^ms must be/ },
    });
    const realtime = consoleOf({ clock: { mode: 'realtime' } });
    expect(await realtime.post('advance', { ms: 5_000 })).toMatchObject({ status: 409 });
    realtime.sandbox.close();
  });

  it('re-delivers a failed delivery now, once: the waiting timer then sends nothing more', async () => {
    const answers = [500, 200];
    const { sandbox, post } = consoleOf({
      deliveryFetch: async () => new Response(null, { status: answers.shift() ?? 200 }),
    });
    consoleWorldOf(sandbox).deliverer.send(
      { id: 'evt_1', type: 'call.incoming', created_at: '2025-01-15T09:00:00Z', data: {} },
      'http://127.0.0.1:9/hooks',
      'whsec_test',
    );
    await sandbox.idle();
    const redeliver = { eventId: 'evt_1', url: 'http://127.0.0.1:9/hooks' };
    expect(await post('redeliver', redeliver)).toEqual({ status: 202, body: { redelivering: redeliver } });
    await sandbox.idle();
    expect(await post('redeliver', redeliver)).toMatchObject({ status: 404 });
    await sandbox.advance(600_000);
    expect(sandbox.deliveries.map((d) => [d.attempt, d.status, d.at - sandbox.deliveries[0]!.at])).toEqual([
      [1, 500, 0],
      [2, 200, 0],
    ]);
  });

  it('answers an unknown action 404, a GET 405 and a body that is not JSON 415', async () => {
    const { handle, post } = consoleOf();
    expect(await post('explode', {})).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await handle(new Request(`${ORIGIN}/_console/api/incoming`))).status).toBe(405);
    const form = await handle(
      new Request(`${ORIGIN}/_console/api/incoming`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'from=%2B15557654321',
      }),
    );
    expect(form.status).toBe(415);
    // A malformed escape in a call id names no call: 404 like an unknown id, not a 500.
    expect(await post('calls/%E0%A4%A/end', {})).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it.each([
    ['another origin', { origin: 'http://evil.test' }],
    ['another port of this host', { origin: 'http://127.0.0.1:4011' }],
    ['a rebound host name', { host: 'evil.test:4010' }],
  ])('refuses requests from %s (403), reading and driving alike', async (_case, headers) => {
    const { sandbox, handle, post } = consoleOf();
    expect(await post('incoming', { from: '+15557654321' }, headers)).toMatchObject({
      status: 403,
      body: { code: 'forbidden' },
    });
    expect((await handle(new Request(`${ORIGIN}/_console/events`, { headers }))).status).toBe(403);
    expect(consoleWorldOf(sandbox).calls.all()).toEqual([]);
  });

  it.each([
    ['127.0.0.1', { origin: ORIGIN, host: '127.0.0.1:4010' }],
    ['localhost', { origin: 'http://localhost:4010', host: 'localhost:4010' }],
  ])('accepts its own origin through %s', async (_case, headers) => {
    const { post } = consoleOf();
    expect(await post('incoming', { from: '+15557654321' }, headers)).toMatchObject({ status: 201 });
  });
});
