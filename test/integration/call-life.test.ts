import { type Clock, FINAL_CALL_STATUSES } from 'telephony-sdk';
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { mountReceiver, serveSandbox } from './helpers.js';

/** Counts the client's GETs of one call. */
function detailReads(client: {
  on: (name: 'request', fn: (event: { method: string; url: string }) => void) => unknown;
}) {
  let reads = 0;
  client.on('request', ({ method, url }) => {
    if (method === 'GET' && /\/v2\/calls\/call_\d+$/.test(url)) reads++;
  });
  return () => reads;
}

describe("a call's life on the sandbox", () => {
  it('a keyed create is found by its key; an unknown key finds nothing', async () => {
    const { client } = await serveSandbox();
    const calls = client().calls;
    await calls.create({ to: '+14155550100' }, { idempotencyKey: 'job-1' });
    const placed = await calls.create(
      { to: '+14155550123', custom_data: { crm: 7 } },
      { idempotencyKey: 'ticket-4711' },
    );
    await calls.create({ to: '+14155550101' });
    const found = await calls.findByIdempotencyKey('ticket-4711');
    expect(found).toMatchObject({
      id: placed.id,
      custom_data: { crm: 7, telephony_sdk_idempotency_key: 'ticket-4711' },
    });
    await expect(calls.findByIdempotencyKey('ticket-0000')).resolves.toBeUndefined();
  });

  it('waitFor polls a placed call to completed, the waits moving sandbox time', async () => {
    const { client, waits } = await serveSandbox();
    const sdk = client();
    const reads = detailReads(sdk);
    const call = await sdk.calls.create({ to: '+14155550123' });
    const done = await sdk.calls.waitFor(call.id, FINAL_CALL_STATUSES, { timeout: 120_000 });
    expect(done).toMatchObject({ id: call.id, status: 'completed' });
    // The sandbox's call completes 35 s after it was placed: 1 + 2 + 4 + 8 + 10 + 10 s of waits.
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(reads()).toBe(7);
  });

  it('waitFor with a receiver on the callback_url is woken by its verified events, not its polls', async () => {
    const { sandbox, client } = await serveSandbox({
      clock: { start: Date.now() },
      callbackSecret: 'whsec_callbacks',
    });
    // The wait's own sleeps end only when aborted: only the receiver's events can move it on.
    const held: Clock = {
      now: () => sandbox.clock.now(),
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const sdk = client({ clock: held });
    const reads = detailReads(sdk);
    const receiver = new WebhookReceiver({ secret: 'whsec_callbacks' });
    const callbackUrl = await mountReceiver(receiver, '/callbacks');
    const call = await sdk.calls.create({ to: '+14155550123', callback_url: callbackUrl });
    const waiting = sdk.calls.waitFor(call.id, 'completed', { receiver });
    await expect.poll(reads).toBe(1);
    await sandbox.advance(35_000);
    await expect(waiting).resolves.toMatchObject({ id: call.id, status: 'completed' });
    // ringing, answered, completed: at most one read after each event.
    expect(reads()).toBeGreaterThanOrEqual(2);
    expect(reads()).toBeLessThanOrEqual(4);
    expect(receiver.listeners('*')).toHaveLength(0);
  });
});
