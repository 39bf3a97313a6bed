/**
 * A real-time sandbox (the CLI's) runs its timers on the wall clock while deliveries are in
 * flight: a receiver that does not answer must not hold back a call's transitions. Fake timers
 * stand in for the wall clock, so the 10 s delivery time-out passes without waiting.
 */
import { createSandbox } from 'telephony-sdk/testing';
import { afterEach, expect, it, vi } from 'vitest';
import { BASE } from './helpers.js';

/**
 * Lets WebCrypto (signing each delivery, on libuv's thread pool: slow on a loaded machine) run until
 * `done`; the fake clock does not move meanwhile.
 */
async function signed(done: () => boolean) {
  for (let turn = 0; turn < 100_000 && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

it('a delivery waiting on a silent receiver does not delay call.answered on a real-time clock', async () => {
  // The wall clock is fake; setImmediate stays real, for the signature's WebCrypto to finish.
  vi.useFakeTimers({
    now: Date.UTC(2025, 0, 15, 9, 0, 0),
    toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  });
  const posted: { type: string; at: number }[] = [];
  const deliveryFetch = (_input: RequestInfo | URL, init?: RequestInit) => {
    const { type } = JSON.parse(String(init?.body)) as { type: string };
    posted.push({ type, at: Date.now() });
    // call.incoming is never answered (the 10 s time-out ends it); the others are at once.
    return type === 'call.incoming' ? new Promise<Response>(() => {}) : Promise.resolve(new Response('ok'));
  };
  const sandbox = createSandbox({ clock: { mode: 'realtime' }, deliveryFetch });
  const send = async (path: string, init: RequestInit) =>
    (await sandbox.fetch(`${BASE}${path}`, init)).json();
  try {
    const { clientId, clientSecret } = sandbox.credentials;
    const form = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
    const { access_token } = await send('/v2/oauth/token', {
      method: 'POST',
      body: new URLSearchParams(form),
    });
    const api = (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await send(
      '/v2/webhooks',
      api({ url: 'http://127.0.0.1:9/hooks', events: ['call.incoming', 'call.answered'] }),
    );
    const start = Date.now();
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await signed(() => posted.length === 1);
    await send('/v2/calls', api({ to: '+14155550123' })); // ringing at 1 s, answered at 5 s
    await vi.advanceTimersByTimeAsync(5_200);
    await signed(() => posted.length === 2);
    expect(posted.map((p) => [p.type, Math.floor((p.at - start) / 1000)])).toEqual([
      ['call.incoming', 0],
      ['call.answered', 5],
    ]);
    await vi.advanceTimersByTimeAsync(5_000);
    await signed(() => sandbox.deliveries.length === 2);
    expect(sandbox.deliveries.map((d) => [d.event.type, d.status])).toEqual([
      ['call.answered', 200],
      ['call.incoming', null],
    ]);
  } finally {
    sandbox.close();
  }
});
