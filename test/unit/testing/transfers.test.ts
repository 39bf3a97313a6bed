import { describe, expect, it } from 'vitest';
import { rawSandbox } from './helpers.js';

const CALL_URL = 'http://127.0.0.1:9/call';
const TRANSFER_URL = 'http://127.0.0.1:9/transfer';
const HOOK_URL = 'http://127.0.0.1:9/hook';
/** call.answered (by the transfer, or before it), then call.transferred when the transfer finishes. */
const ANSWERED_THEN_TRANSFERRED = ['call.answered:answered', 'call.transferred:answered'];
const ALL_CALL_EVENTS = ['call.incoming', 'call.answered', 'call.missed', 'call.ended', 'call.transferred'];

/** A sandbox whose deliveries all answer 200 without a socket, and a token to drive it. */
async function setup() {
  const raw = rawSandbox({ deliveryFetch: async () => new Response(null, { status: 200 }) });
  const { access_token } = await raw.tokenFor();
  const as = (method: string, path: string, body?: unknown) => raw.send(method, path, access_token, body);
  await as('POST', '/v2/webhooks', { url: HOOK_URL, events: ALL_CALL_EVENTS });
  const { sandbox } = raw;
  /** What a URL was sent, in the order the sandbox emitted it (event ids grow with each event). */
  const heard = (url: string) =>
    sandbox.deliveries
      .filter((delivery) => delivery.url === url)
      .sort((a, b) => a.event.id.localeCompare(b.event.id))
      .map((delivery) => `${delivery.event.type}:${(delivery.event.data.call as { status: string }).status}`);
  const placeCall = async (body: Record<string, unknown> = {}) =>
    (await as('POST', '/v2/calls', { to: '+15551234567', ...body })).body.data.call.id as string;
  const transfer = (id: string, body: Record<string, unknown> = {}) =>
    as('POST', `/v2/calls/${id}/transfer`, { to: '+15557654321', ...body });
  const detail = async (id: string) => (await as('GET', `/v2/calls/${id}`)).body.data.call;
  return { sandbox, as, heard, placeCall, transfer, detail };
}

describe('a transfer’s callback_url', () => {
  it('leaves the call’s own: that URL hears every change; the transfer’s hears the one that finishes it', async () => {
    const { sandbox, heard, placeCall, transfer } = await setup();
    const id = await placeCall({ callback_url: CALL_URL });
    await sandbox.advance(5_000);
    expect((await transfer(id, { callback_url: TRANSFER_URL })).status).toBe(200);
    await sandbox.advance(40_000);
    expect(heard(CALL_URL)).toEqual([
      'call.status_changed:ringing',
      'call.status_changed:answered',
      'call.status_changed:transferring',
      'call.status_changed:answered',
      'call.status_changed:completed',
    ]);
    expect(heard(TRANSFER_URL)).toEqual(['call.status_changed:answered']);
    // One change, one event: both URLs got the transfer's end under the same id.
    const finished = sandbox.deliveries.find((d) => d.url === TRANSFER_URL);
    // The two deliveries run side by side: which one is recorded first is not part of the promise.
    const sameEvent = sandbox.deliveries.filter((d) => d.event.id === finished?.event.id).map((d) => d.url);
    expect(sameEvent.sort()).toEqual([CALL_URL, TRANSFER_URL].sort());
  });

  it('hears the call’s end when the call ends before the transfer finishes; a refused transfer changes nothing', async () => {
    const { sandbox, as, heard, placeCall, transfer } = await setup();
    const id = await placeCall({ callback_url: CALL_URL });
    await sandbox.advance(5_000);
    await transfer(id, { callback_url: TRANSFER_URL });
    const refused = await transfer(id, { callback_url: 'http://127.0.0.1:9/refused' });
    expect(refused.status).toBe(400);
    await sandbox.advance(1_000);
    await as('DELETE', `/v2/calls/${id}`);
    await sandbox.advance(60_000);
    expect(heard(TRANSFER_URL)).toEqual(['call.status_changed:ended']);
    expect(heard('http://127.0.0.1:9/refused')).toEqual([]);
    expect(heard(CALL_URL).at(-1)).toBe('call.status_changed:ended');
  });
});

describe('a transfer near the natural completion (35 s) of an outbound call', () => {
  it.each([
    [33_000, 'completion − 2 s: the transfer would finish at 35 s'],
    [34_999, 'completion − 1 ms'],
  ])('transferred at %i ms (%s): completed at 35 s, never answered for ever', async (at) => {
    const { sandbox, heard, placeCall, transfer, detail } = await setup();
    const id = await placeCall({ callback_url: CALL_URL });
    await sandbox.advance(at);
    expect((await transfer(id)).status).toBe(200);
    await sandbox.advance(35_000 - at);
    expect(await detail(id)).toMatchObject({ status: 'completed', ended_at: '2025-01-15T09:00:35.000Z' });
    await sandbox.advance(600_000);
    expect((await detail(id)).status).toBe('completed');
    // The far end hung up during the transfer: it never finished, so no call.transferred.
    expect(heard(HOOK_URL)).toEqual(['call.answered:answered', 'call.ended:completed']);
    expect(heard(CALL_URL).slice(-2)).toEqual([
      'call.status_changed:transferring',
      'call.status_changed:completed',
    ]);
  });

  it('transferred at exactly 35 s: the call has completed, the transfer is refused (400)', async () => {
    const { sandbox, placeCall, transfer, detail } = await setup();
    const id = await placeCall();
    await sandbox.advance(35_000);
    const refused = await transfer(id);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_parameter');
    expect(await detail(id)).toMatchObject({ status: 'completed', transferred: false });
  });

  it('transferred at completion − 2 s − 1 ms: the transfer finishes, then the call completes at 35 s', async () => {
    const { sandbox, heard, placeCall, transfer, detail } = await setup();
    const id = await placeCall();
    await sandbox.advance(32_999);
    await transfer(id);
    await sandbox.advance(2_001);
    expect(await detail(id)).toMatchObject({ status: 'completed', transferred: true, duration: 30 });
    expect(heard(HOOK_URL)).toEqual([...ANSWERED_THEN_TRANSFERRED, 'call.ended:completed']);
  });
});

describe('transfer of a call not yet answered (SPEC.md: any call in progress)', () => {
  it('a ringing inbound call is answered at its new end: call.answered, then call.transferred', async () => {
    const { sandbox, heard, transfer, detail } = await setup();
    const { id } = sandbox.simulateIncomingCall({ from: '+15550001111' });
    await sandbox.advance(1_000);
    expect((await transfer(id, { to: 'usr_7' })).body.data.call.status).toBe('transferring');
    await sandbox.advance(2_000);
    expect(await detail(id)).toMatchObject({ status: 'answered', transferred: true, duration: 0 });
    expect(heard(HOOK_URL)).toEqual(['call.incoming:ringing', ...ANSWERED_THEN_TRANSFERRED]);
    await sandbox.advance(10_000);
    expect((await detail(id)).duration).toBe(10);
  });

  it('an initiating outbound call: one call.answered when the transfer finishes, none at 5 s, completed at 35 s', async () => {
    const { sandbox, heard, placeCall, transfer, detail } = await setup();
    const id = await placeCall({ callback_url: CALL_URL });
    await transfer(id);
    await sandbox.advance(60_000);
    expect(heard(HOOK_URL)).toEqual([...ANSWERED_THEN_TRANSFERRED, 'call.ended:completed']);
    expect(heard(CALL_URL)).toEqual([
      'call.status_changed:transferring',
      'call.status_changed:answered',
      'call.status_changed:completed',
    ]);
    expect(await detail(id)).toMatchObject({ status: 'completed', duration: 33 });
  });

  it('an answered call transferred is not answered again: call.transferred alone', async () => {
    const { sandbox, heard, transfer } = await setup();
    const { id } = sandbox.simulateIncomingCall({ from: '+15550001111' });
    sandbox.answerCall(id);
    await transfer(id);
    await sandbox.advance(2_000);
    expect(heard(HOOK_URL)).toEqual(['call.incoming:ringing', ...ANSWERED_THEN_TRANSFERRED]);
  });
});
