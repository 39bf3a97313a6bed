/**
 * The console's second set of actions, in process: resend any delivery and every failed one,
 * settle a ringing call, place an outbound call, list, delete and test webhooks; and the event
 * stream's backpressure.
 */
import type { Sandbox } from 'telephony-sdk/testing';
import { describe, expect, it } from 'vitest';
import { consoleWorldOf } from '../../../src/testing/sandbox.js';
import { consoleOf, ORIGIN, readEvents } from './console-helpers.js';
import { registerWebhook } from './helpers.js';

const HOOKS = 'http://127.0.0.1:9/hooks';

const register = (sandbox: Sandbox) =>
  registerWebhook(sandbox, { url: HOOKS, events: ['call.incoming'], secret: 'whsec_test' });

/**
 * A sandbox whose receiver answers each event by its id: `answers[id]` in order, then 200. By id,
 * not by arrival: attempts made together reach the receiver in any order.
 */
function answering(answers: Record<string, number[]>) {
  return consoleOf({
    deliveryFetch: async (_url, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: string };
      return new Response(null, { status: answers[id]?.shift() ?? 200 });
    },
  });
}

const attempts = (sandbox: Sandbox) =>
  sandbox.deliveries.map((d) => [
    d.event.id,
    d.attempt,
    d.status,
    d.resent,
    d.at - (sandbox.deliveries[0]?.at ?? 0),
  ]);

describe('resending from the console', () => {
  it('resends a delivered event and one whose re-deliveries ran out: one attempt each, by hand, none scheduled', async () => {
    const { sandbox, post } = answering({ evt_00000001: [200, 500], evt_00000002: Array(7).fill(500) });
    await register(sandbox);
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    sandbox.simulateIncomingCall({ from: '+15557654322' });
    await sandbox.advance(400_000); // evt 2: six attempts, all failed, no more scheduled
    const delivered = { eventId: 'evt_00000001', url: HOOKS };
    expect(await post('resend', delivered)).toEqual({ status: 202, body: { redelivering: delivered } });
    expect(await post('resend', { eventId: 'evt_00000002', url: HOOKS })).toMatchObject({ status: 202 });
    await sandbox.advance(400_000);
    const byEvent = (id: string) => attempts(sandbox).filter(([event]) => event === id);
    expect(byEvent('evt_00000001').map(([, attempt, status, resent]) => [attempt, status, resent])).toEqual([
      [1, 200, false],
      [2, 500, true],
    ]);
    expect(byEvent('evt_00000002').map(([, attempt, status, resent]) => [attempt, status, resent])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 500, false],
      [5, 500, false],
      [6, 500, false],
      [7, 500, true],
    ]);
    expect(await post('resend', { eventId: 'evt_00000009', url: HOOKS })).toMatchObject({
      status: 404,
      body: { message: `No delivery of evt_00000009 to ${HOOKS} is kept` },
    });
  });

  it('"resend all failed" resends each event whose latest answer was not a 200, and only those', async () => {
    const { sandbox, post } = answering({ evt_00000001: [500], evt_00000003: [503] });
    await register(sandbox);
    for (const from of ['+15557654321', '+15557654322', '+15557654323'])
      sandbox.simulateIncomingCall({ from });
    await sandbox.idle();
    expect(await post('resend-failed', {})).toEqual({ status: 202, body: { resent: 2 } });
    await sandbox.idle();
    expect(
      attempts(sandbox)
        .map(([event, attempt, status]) => `${event}#${attempt}:${status}`)
        .sort(),
    ).toEqual([
      'evt_00000001#1:500',
      'evt_00000001#2:200',
      'evt_00000002#1:200',
      'evt_00000003#1:503',
      'evt_00000003#2:200',
    ]);
    expect(await post('resend-failed', {})).toEqual({ status: 202, body: { resent: 0 } });
  });
});

describe('calls from the console', () => {
  it.each([
    ['answer', 'answered'],
    ['miss', 'missed'],
    ['voicemail', 'voicemail'],
  ])('%s settles a ringing call; a call not ringing is 400, an unknown one 404', async (verb, status) => {
    const { sandbox, post } = consoleOf();
    const { id } = sandbox.simulateIncomingCall({ from: '+15557654321' });
    expect(await post(`calls/${id}/${verb}`, {})).toEqual({ status: 200, body: { call: { id, status } } });
    expect(await post(`calls/${id}/${verb}`, {})).toMatchObject({
      status: 400,
      body: { message: `Call ${id} is ${status}, not ringing` },
    });
    expect(await post(`calls/call_999999/${verb}`, {})).toMatchObject({ status: 404 });
  });

  it('places an outbound call from the account number, checked like POST /v2/calls', async () => {
    const { sandbox, post } = consoleOf();
    const placed = await post('calls', { to: '+14155550123' });
    expect(placed).toMatchObject({
      status: 200,
      body: { data: { call: { id: 'call_000001', status: 'initiating', from: { number: '+15550100000' } } } },
    });
    await sandbox.advance(5_000);
    expect(consoleWorldOf(sandbox).calls.get('call_000001').status).toBe('answered');
    expect(await post('calls', { to: 'nope' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_parameter' },
    });
  });
});

describe('webhooks in the console', () => {
  it('lists webhooks without secrets, streams each change, deletes one and sends a signed test event', async () => {
    const { sandbox, handle, post } = answering({});
    const first = await register(sandbox);
    const response = await handle(new Request(`${ORIGIN}/_console/events`));
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no stream');
    const [snapshot] = await readEvents(reader, 1);
    const listed = {
      id: first,
      url: HOOKS,
      events: ['call.incoming'],
      description: null,
      created_at: '2025-01-15T09:00:00.000Z',
    };
    expect(snapshot?.data).toMatchObject({ webhooks: [listed] });
    expect(JSON.stringify(snapshot)).not.toContain('whsec_test');

    const second = await register(sandbox); // the same URL again: the page shows it twice
    const [, added] = await readEvents(reader, 2); // the token request's record, then the list
    expect(added).toEqual({
      event: 'webhooks',
      data: [listed, expect.objectContaining({ id: second, url: HOOKS })],
    });

    expect(await post(`webhooks/${second}/test`, {})).toEqual({
      status: 202,
      body: { sent: { eventId: 'evt_00000001', url: HOOKS } },
    });
    await sandbox.idle();
    const [test] = sandbox.deliveries;
    expect(JSON.parse(test?.body ?? '')).toMatchObject({
      id: 'evt_00000001',
      type: 'webhook.test',
      data: { webhook: { id: second, url: HOOKS, events: ['call.incoming'] } },
    });
    expect(test?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    expect(await post(`webhooks/${second}/delete`, {})).toEqual({
      status: 200,
      body: { deleted: { id: second, url: HOOKS } },
    });
    expect(sandbox.webhooks.map((webhook) => webhook.id)).toEqual([first]);
    const events = await readEvents(reader, 3); // the test delivery's record, then the list
    expect(events.find((event) => event.event === 'webhooks')).toEqual({ event: 'webhooks', data: [listed] });
    expect(await post(`webhooks/${second}/delete`, {})).toMatchObject({ status: 404 });
    await reader.cancel();
  });
});

describe('the event stream under backpressure', () => {
  it('queues a bounded amount for a page that does not read, then sends it one fresh snapshot', async () => {
    const { sandbox, handle } = consoleOf();
    const { activity } = consoleWorldOf(sandbox);
    const response = await handle(new Request(`${ORIGIN}/_console/events`));
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no stream');
    const request = (path: string) =>
      activity.push({
        kind: 'request',
        at: 0,
        method: 'GET',
        path,
        status: 200,
        fault: null,
        principal: null,
        rate: null,
      });
    // 2 000 records of about 1 KiB, none read: unbounded, all 2 MiB would wait in memory.
    for (let i = 0; i < 2_000; i++) request(`/v2/calls/${i}?${'x'.repeat(1_000)}`);
    request('/the-last-one');
    let text = '';
    const decoder = new TextDecoder();
    while (!text.includes('/the-last-one')) text += decoder.decode((await reader.read()).value);
    const count = (event: string) => text.split(`event: ${event}\n`).length - 1;
    expect(count('snapshot')).toBe(2);
    expect(count('activity')).toBeGreaterThan(100);
    expect(count('activity')).toBeLessThan(400);
    await reader.cancel();
  });
});
