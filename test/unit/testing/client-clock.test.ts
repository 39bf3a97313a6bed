import { TelephonyClient } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';

const RECENT = { method: 'GET', path: '/v2/calls/recent' } as const;

/** Delays of the real timers whose callbacks ran: a long one is a real sleep. */
function realTimersThatRan(): number[] {
  const ran: number[] = [];
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((run: () => void, ms?: number) =>
    real(() => {
      ran.push(ms ?? 0);
      run();
    }, ms)) as typeof setTimeout);
  return ran;
}

describe('sandbox.clientClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a client pacing over its plan on a manual sandbox moves sandbox minutes and sleeps for none', async () => {
    const plan = { requestsPerMinute: 5 };
    const sandbox = createSandbox({ clients: [{ clientId: 'app', clientSecret: 's', plan }] });
    const client = new TelephonyClient({
      baseUrl: 'http://sandbox.test',
      ...sandbox.credentials,
      fetch: sandbox.fetch,
      rateLimit: plan,
      clock: sandbox.clientClock,
    });
    const ran = realTimersThatRan();
    const start = sandbox.clock.now();
    for (let i = 0; i < 12; i++) await client.request(RECENT);

    // 12 requests at 5 a minute: the 6th and the 11th wait for a window to free.
    expect(sandbox.clock.now() - start).toBeGreaterThanOrEqual(120_000);
    expect(sandbox.rateReport()[0]).toMatchObject({ counted: 12, rejected: 0, maxInWindow: 5 });
    expect(ran.filter((ms) => ms >= 1_000)).toEqual([]);
  });

  it('a 429 pause moves the manual sandbox clock by Retry-After', async () => {
    const sandbox = createSandbox({
      clients: [{ clientId: 'app', clientSecret: 's', plan: { requestsPerMinute: 1 } }],
    });
    const client = new TelephonyClient({
      baseUrl: 'http://sandbox.test',
      ...sandbox.credentials,
      fetch: sandbox.fetch,
      clock: sandbox.clientClock,
    });
    const start = sandbox.clock.now();
    await client.request(RECENT);
    await client.request(RECENT); // 429 Retry-After: 60, waited out, then answered
    expect(sandbox.clock.now() - start).toBe(60_000);
    expect(sandbox.rateReport()[0]).toMatchObject({ counted: 2, rejected: 1 });
  });

  it('sleep rejects with the reason of a signal aborted before it, without moving time', async () => {
    const sandbox = createSandbox();
    const start = sandbox.clock.now();
    const reason = new Error('gave up');
    await expect(sandbox.clientClock.sleep(5_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(sandbox.clock.now()).toBe(start);
    await sandbox.clientClock.sleep(5_000, new AbortController().signal);
    expect(sandbox.clientClock.now()).toBe(start + 5_000);
  });

  it('sleep rejects as soon as its signal aborts, while sandbox time still moves', async () => {
    const sandbox = createSandbox();
    const start = sandbox.clock.now();
    const controller = new AbortController();
    const reason = new Error('gave up');
    const sleeping = sandbox.clientClock.sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    await new Promise(setImmediate); // after every microtask: the advance has finished
    expect(sandbox.clock.now()).toBe(start + 60_000);
  });

  it('on a real-time sandbox, sleep waits for real and now() is sandbox time', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const sandbox = createSandbox({ clock: { mode: 'realtime', start: Date.UTC(2025, 0, 1) } });
    let woke = false;
    const sleeping = sandbox.clientClock.sleep(1_000).then(() => {
      woke = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(woke).toBe(true);
    expect(sandbox.clientClock.now()).toBe(Date.UTC(2025, 0, 1) + 1_000);
    sandbox.close();
  });
});
