import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { mountReceiver, serveSandbox } from './helpers.js';

describe('webhooks end to end', () => {
  it('the sandbox signs, the receiver verifies, handlers see typed call events', async () => {
    // Sandbox time near the wall clock: the receiver checks the signature's age against now.
    const { sandbox, client } = await serveSandbox({ clock: { start: Date.now() } });
    const receiver = new WebhookReceiver({ secret: 'whsec_integration' });
    const seen: string[] = [];
    receiver.on('call.incoming', async (event) => {
      seen.push(`${event.type}:${event.data.call.status}`);
    });
    receiver.on('call.missed', async (event) => {
      seen.push(event.type);
    });
    const url = await mountReceiver(receiver);
    await client().webhooks.create({
      url,
      events: ['call.incoming', 'call.missed'],
      secret: 'whsec_integration',
    });
    const call = sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.idle();
    sandbox.missCall(call.id);
    await sandbox.idle();
    expect(seen).toEqual(['call.incoming:ringing', 'call.missed']);
    expect(sandbox.deliveries.map((d) => d.status)).toEqual([200, 200]);
  });

  it('a call sent to voicemail: call.missed and voicemail.new, both verified and dispatched by type', async () => {
    const { sandbox, client } = await serveSandbox({ clock: { start: Date.now() } });
    const receiver = new WebhookReceiver({ secret: 'whsec_integration' });
    const seen: string[] = [];
    receiver.on('call.missed', (event) => {
      seen.push(event.type);
    });
    receiver.on('voicemail.new', (event) => {
      // The SDK types voicemail.new's data as an open record; the sandbox sends { call }.
      const { call } = event.data as { call: { id: string; status: string } };
      seen.push(`${event.type}:${call.id}:${call.status}`);
    });
    const url = await mountReceiver(receiver);
    await client().webhooks.create({
      url,
      events: ['call.missed', 'voicemail.new'],
      secret: 'whsec_integration',
    });
    const call = sandbox.simulateIncomingCall({ from: '+15557654321' });
    sandbox.voicemailCall(call.id);
    await sandbox.idle();
    // Posted at once, so they may arrive in either order.
    expect(seen.sort()).toEqual(['call.missed', `voicemail.new:${call.id}:voicemail`]);
    expect(sandbox.deliveries.map((d) => [d.event.type, d.status]).sort()).toEqual([
      ['call.missed', 200],
      ['voicemail.new', 200],
    ]);
  });

  it('a failing handler gets a 500, the sandbox re-delivers the same event, the retry is processed', async () => {
    const { sandbox, client } = await serveSandbox({ clock: { start: Date.now() } });
    const receiver = new WebhookReceiver({ secret: 'whsec_integration' });
    const ids: string[] = [];
    let failures = 1;
    receiver.on('call.incoming', async (event) => {
      ids.push(event.id);
      if (failures-- > 0) throw new Error('database down');
    });
    const url = await mountReceiver(receiver);
    await client().webhooks.create({ url, events: ['call.incoming'], secret: 'whsec_integration' });
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.idle();
    expect(sandbox.deliveries.map((d) => d.status)).toEqual([500]);
    await sandbox.advance(10_000);
    expect(sandbox.deliveries.map((d) => d.status)).toEqual([500, 200]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });

  it('callback_url of calls.create gets every status change, verified with the callback secret', async () => {
    const { sandbox, client } = await serveSandbox({
      clock: { start: Date.now() },
      callbackSecret: 'whsec_callbacks',
    });
    const receiver = new WebhookReceiver({ secret: 'whsec_callbacks' });
    const seen: string[] = [];
    receiver.on('*', (event) => {
      seen.push(`${event.type}:${(event.data as { call: { status: string } }).call.status}`);
    });
    const callbackUrl = await mountReceiver(receiver);
    await client().calls.create({ to: '+15551234567', callback_url: callbackUrl });
    await sandbox.advance(35_000);
    expect(seen).toEqual([
      'call.status_changed:ringing',
      'call.status_changed:answered',
      'call.status_changed:completed',
    ]);
    expect(sandbox.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
  });

  it('a wrong secret is refused with 401 and retried', async () => {
    const { sandbox, client } = await serveSandbox({ clock: { start: Date.now() } });
    const url = await mountReceiver(new WebhookReceiver({ secret: 'a_different_secret' }));
    await client().webhooks.create({ url, events: ['call.incoming'], secret: 'whsec_integration' });
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.advance(10_000);
    expect(sandbox.deliveries.map((d) => d.status)).toEqual([401, 401]);
  });
});
