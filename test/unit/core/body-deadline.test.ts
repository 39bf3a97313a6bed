import { getEventListeners } from 'node:events';
import { HttpResponse, http } from 'msw';
import { APITimeoutError, APIUserAbortError } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A 200 whose body sends its first bytes, then never another one (until the reader gives up). */
function stallingBody() {
  let answered = () => {};
  const state = {
    cancelled: false,
    /** Settles when the answer's headers are sent: the deadline's timer runs from then on. */
    answered: new Promise<void>((resolve) => {
      answered = resolve;
    }),
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"status":"success","da'));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  server.use(
    tokenHandler(),
    http.get(`${BASE}/v2/x`, () => {
      answered();
      return new HttpResponse(body, { headers: { 'content-type': 'application/json' } });
    }),
  );
  return state;
}

describe('the per-attempt deadline covers the body', () => {
  it('a body that stalls after the headers fails with APITimeoutError at the timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { answered } = stallingBody();
    const pending = rejection(testClient().request({ method: 'GET', path: '/v2/x' }, { timeout: 500 }));
    // The client-credentials code loads by import() first: time runs once the call is on the wire.
    await answered;
    await vi.advanceTimersByTimeAsync(500);
    const error = await pending;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.message).toBe('GET /v2/x timed out after 500 ms');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a body that stalls is cut at the call's totalTimeout when that comes before the attempt's timeout", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { answered } = stallingBody();
    // The client's clock is the faked wall clock: the deadline and the timers move together.
    const clock = { now: () => Date.now(), sleep: () => Promise.resolve() };
    const call = testClient({ clock, accessToken: 'tok' }).request(
      { method: 'GET', path: '/v2/x' },
      { timeout: 60_000, totalTimeout: 500 },
    );
    let error: unknown;
    const settled = call.then(
      () => 'resolved',
      (e: unknown) => {
        error = e;
        return 'rejected';
      },
    );
    await answered;
    await vi.advanceTimersByTimeAsync(500);
    expect(await Promise.race([settled, Promise.resolve('pending')])).toBe('rejected');
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toMatchObject({
      message: 'GET /v2/x passed its totalTimeout of 500 ms',
      outcome: 'unknown',
      attempts: [{ status: 200 }],
    });
  });

  it("the caller's abort during the body read is APIUserAbortError with the signal's reason", async () => {
    stallingBody();
    const controller = new AbortController();
    const client = testClient();
    client.on('response', () => setImmediate(() => controller.abort('user left')));
    const error = await rejection(
      client.request({ method: 'GET', path: '/v2/x' }, { signal: controller.signal, timeout: 60_000 }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.cause).toBe('user left');
  });
});

describe('a long-lived caller signal', () => {
  it('keeps no listener after the calls it was given end, and at most one while they run', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => HttpResponse.json({})),
    );
    const signal = new AbortController().signal;
    const client = testClient();
    const counts: number[] = [];
    client.on('request', () => counts.push(getEventListeners(signal, 'abort').length));
    await Promise.all(
      Array.from({ length: 20 }, () => client.request({ method: 'GET', path: '/v2/x' }, { signal })),
    );
    expect(Math.max(...counts)).toBe(1);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('aborting it still aborts every call in flight', async () => {
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, async () => {
        hits++;
        await new Promise(() => {});
      }),
    );
    const controller = new AbortController();
    const client = testClient();
    const calls = Array.from({ length: 3 }, () =>
      rejection(client.request({ method: 'GET', path: '/v2/x' }, { signal: controller.signal })),
    );
    await vi.waitFor(() => expect(hits).toBe(3));
    controller.abort('stop');
    for (const error of await Promise.all(calls)) {
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect(error.cause).toBe('stop');
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
