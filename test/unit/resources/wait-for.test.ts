import { HttpResponse, http } from 'msw';
import {
  APIUserAbortError,
  type Clock,
  FINAL_CALL_STATUSES,
  TelephonyError,
  ValidationError,
  WaitTimeoutError,
  WebhookReceiver,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { detailCall } from '../../fixtures/calls.js';
import { BASE, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';
import { header, NOW, SECRET } from '../webhooks/helpers.js';

/** GET /v2/calls/call_1 answers these statuses in turn (the last one from then on). */
function statuses(...sequence: string[]) {
  let reads = 0;
  server.use(
    tokenHandler(),
    http.get(`${BASE}/v2/calls/:id`, ({ params }) => {
      const status = sequence[Math.min(reads++, sequence.length - 1)];
      return HttpResponse.json({
        status: 'success',
        data: { call: { ...detailCall(String(params.id)), status } },
      });
    }),
  );
  return { reads: () => reads };
}

/** A clock whose waits end only when `tick()` is called or their signal aborts: nothing sleeps. */
function heldClock() {
  const waits: number[] = [];
  let release: (() => void) | undefined;
  const clock: Clock = {
    now: () => Date.UTC(2025, 0, 15),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        waits.push(ms);
        release = resolve;
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  };
  return { clock, waits, tick: () => release?.(), waiting: () => waits.length };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('calls.waitFor', () => {
  it('polls with a growing interval (1 s doubling up to 10 s) until a final status', async () => {
    const clock = fakeClock();
    const calls = statuses(
      'initiating',
      'ringing',
      'answered',
      'answered',
      'answered',
      'answered',
      'completed',
    );
    const done = await testClient({ clock }).calls.waitFor('call_1', FINAL_CALL_STATUSES);
    expect(done).toMatchObject({ id: 'call_1', status: 'completed' });
    expect(calls.reads()).toBe(7);
    expect(clock.waits).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('takes one status, or a predicate on the detail', async () => {
    statuses('ringing', 'answered');
    const clock = fakeClock();
    await expect(testClient({ clock }).calls.waitFor('call_1', 'answered')).resolves.toMatchObject({
      status: 'answered',
    });
    const predicate = await testClient({ clock }).calls.waitFor('call_1', (call) => call.duration > 100);
    expect(predicate.id).toBe('call_1');
  });

  it('pollInterval sets the first wait and the largest', async () => {
    const clock = fakeClock();
    statuses('ringing', 'ringing', 'ringing', 'ringing', 'ended');
    await testClient({ clock }).calls.waitFor('call_1', 'ended', {
      pollInterval: { initial: 300, max: 1000 },
    });
    expect(clock.waits).toEqual([300, 600, 1000, 1000]);
  });

  it('timeout rejects with WaitTimeoutError (code wait_timeout) after a last read, the waits cut to fit', async () => {
    const clock = fakeClock();
    const calls = statuses('ringing');
    const error = await testClient({ clock })
      .calls.waitFor('call_1', FINAL_CALL_STATUSES, { timeout: 5000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).toMatchObject({ code: 'wait_timeout', timeout: 5000 });
    expect((error as Error).message).toBe('calls.waitFor: call "call_1" still "ringing" after 5000 ms');
    expect(clock.waits).toEqual([1000, 2000, 2000]);
    expect(calls.reads()).toBe(4);
  });

  it('the signal rejects with APIUserAbortError, during a wait, and no read follows', async () => {
    const held = heldClock();
    const calls = statuses('ringing');
    const controller = new AbortController();
    const waiting = testClient({ clock: held.clock }).calls.waitFor('call_1', 'ended', {
      signal: controller.signal,
    });
    await expect.poll(held.waiting).toBe(1);
    controller.abort(new Error('shutting down'));
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toEqual(new Error('shutting down'));
    expect(calls.reads()).toBe(1);
  });

  it.each([
    ['an empty array', [], {}, 'until'],
    ['an empty status', '', {}, 'until'],
    ['a number', 3, {}, 'until'],
    ['an array holding a number', ['ended', 3], {}, 'until'],
    ['a negative timeout', 'ended', { timeout: -1 }, 'timeout'],
    ['a zero first interval', 'ended', { pollInterval: { initial: 0 } }, 'pollInterval.initial'],
    ['an unknown interval key', 'ended', { pollInterval: { min: 5 } }, 'pollInterval.min'],
  ])(
    '%s is a ValidationError naming the field, and nothing is sent',
    async (_name, until, options, field) => {
      const calls = statuses('ended');
      const error = await testClient()
        // biome-ignore lint/suspicious/noExplicitAny: invalid input on purpose.
        .calls.waitFor('call_1', until as any, options as any)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([field]);
      expect(calls.reads()).toBe(0);
    },
  );
});

describe('calls.waitFor with a receiver', () => {
  const event = (id: string, callId: string, status: string) => {
    const raw = JSON.stringify({
      id,
      type: 'call.status_changed',
      created_at: '2025-11-13T02:13:20Z',
      data: { call: { id: callId, status } },
    });
    return { body: raw, headers: { 'service-signature': header(raw) } };
  };

  it('reads again as soon as the receiver verifies an event for the call, and removes its listener', async () => {
    const held = heldClock();
    const calls = statuses('ringing', 'completed');
    const receiver = new WebhookReceiver({ secret: SECRET, now: NOW });
    const waiting = testClient({ clock: held.clock }).calls.waitFor('call_1', FINAL_CALL_STATUSES, {
      receiver,
    });
    await expect.poll(held.waiting).toBe(1);
    expect(held.waits).toEqual([10_000]);
    expect(receiver.listeners('*')).toHaveLength(1);

    // Another call's event, and a forged one, wake nothing.
    await receiver.handle(event('evt_1', 'call_2', 'completed'));
    await receiver.handle({
      ...event('evt_2', 'call_1', 'completed'),
      headers: { 'service-signature': 'x' },
    });
    await settled();
    expect(calls.reads()).toBe(1);

    await receiver.handle(event('evt_3', 'call_1', 'completed'));
    await expect(waiting).resolves.toMatchObject({ status: 'completed' });
    expect(calls.reads()).toBe(2);
    expect(held.waits).toEqual([10_000]);
    expect(receiver.listeners('*')).toHaveLength(0);
  });

  it('removes its listener when the wait fails too', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET, now: NOW });
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/calls/:id`, () =>
        HttpResponse.json({ status: 'error', code: 'not_found', message: 'no such call' }, { status: 404 }),
      ),
    );
    await expect(testClient().calls.waitFor('call_9', 'ended', { receiver })).rejects.toMatchObject({
      status: 404,
    });
    expect(receiver.listeners('*')).toHaveLength(0);
  });
});
