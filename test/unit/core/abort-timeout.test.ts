import { inspect } from 'node:util';
import { delay, HttpResponse, http } from 'msw';
import { APIConnectionError, APITimeoutError, APIUserAbortError } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { BASE, CANARY, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

afterEach(() => {
  vi.useRealTimers();
});

/** What `promise` settled to within a few event-loop turns (no timer advanced), or `'pending'`. */
async function settledSoon(promise: Promise<unknown>): Promise<unknown> {
  let outcome: unknown = 'pending';
  promise.then(
    (value) => {
      outcome = value;
    },
    (error: unknown) => {
      outcome = error;
    },
  );
  for (let turn = 0; turn < 20 && outcome === 'pending'; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return outcome;
}

describe('abort', () => {
  it('aborting during a request rejects with APIUserAbortError whose cause is the reason', async () => {
    const controller = new AbortController();
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, async () => {
        hits++;
        controller.abort(new Error('user left'));
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const error = await testClient()
      .request({ method: 'GET', path: '/v2/x' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toEqual(new Error('user left'));
    expect(hits).toBe(1);
  });

  it('aborting during a backoff wait rejects at once, without another attempt', async () => {
    const controller = new AbortController();
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        return HttpResponse.json({}, { status: 503, headers: { 'Retry-After': '5' } });
      }),
    );
    const clock = fakeClock();
    const client = testClient({ clock });
    client.on('retry', () => controller.abort('stop'));
    const error = await client
      .request({ method: 'GET', path: '/v2/x' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe('stop');
    expect(hits).toBe(1);
  });

  it('aborting during a real backoff wait (system clock) rejects at once and clears the timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        return HttpResponse.json({}, { status: 503, headers: { 'Retry-After': '30' } });
      }),
    );
    const client = testClient({ clock: systemClock });
    // After the 'retry' event the client starts its 30 s sleep; abort once it is waiting.
    client.on('retry', () => queueMicrotask(() => controller.abort('stop')));
    const pending = client.request({ method: 'GET', path: '/v2/x' }, { signal: controller.signal });
    pending.catch(() => {}); // handled here; settledSoon reads the outcome below
    // ky passes a turn of the timer queue (its own wait, 0 ms) before the client's wait.
    await vi.waitFor(() => expect(hits).toBe(1));
    await vi.advanceTimersByTimeAsync(0);
    const error = await settledSoon(pending);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe('stop');
    expect(hits).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborting while the token request is pending rejects at once, sending no data request', async () => {
    const controller = new AbortController();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let tokenAsked = false;
    let hits = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, async () => {
        tokenAsked = true;
        await released;
        return HttpResponse.json({ access_token: CANARY.accessToken, expires_in: 3600 });
      }),
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        return HttpResponse.json({});
      }),
    );
    const client = testClient();
    const pending = client.request({ method: 'GET', path: '/v2/x' }, { signal: controller.signal });
    await vi.waitFor(() => expect(tokenAsked).toBe(true));
    controller.abort('gone');
    const error = await settledSoon(pending);
    release();
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe('gone');
    // The shared token request still completes and is cached for the next call.
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(hits).toBe(1);
  });

  it('an already aborted signal sends nothing', async () => {
    let tokens = 0;
    server.use(tokenHandler({ onRequest: () => tokens++ }));
    const error = await testClient()
      .request({ method: 'GET', path: '/v2/x' }, { signal: AbortSignal.abort('early') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(tokens).toBe(0);
  });
});

describe('timeout', () => {
  it('a slow attempt is an APITimeoutError (an APIConnectionError); GET retries, POST does not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let gets = 0;
    let posts = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, async () => {
        gets++;
        await delay('infinite');
        return HttpResponse.json({});
      }),
      http.post(`${BASE}/v2/x`, async () => {
        posts++;
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const client = testClient();
    const get = rejection(client.request({ method: 'GET', path: '/v2/x' }, { timeout: 1000, maxRetries: 1 }));
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(gets).toBe(2));
    await vi.advanceTimersByTimeAsync(1000);
    const getError = await get;
    expect(getError).toBeInstanceOf(APITimeoutError);
    expect(getError).toBeInstanceOf(APIConnectionError);
    expect(getError.message).toBe('GET /v2/x timed out after 1000 ms');
    expect(gets).toBe(2);
    expect(inspect(getError, { depth: 10, showHidden: true })).not.toContain(CANARY.accessToken);

    const post = rejection(client.request({ method: 'POST', path: '/v2/x', body: {} }, { timeout: 1000 }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await post).toBeInstanceOf(APITimeoutError);
    expect(posts).toBe(1);
  });

  it('the default timeout is 60 000 ms per attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const pending = testClient({ maxRetries: 0 }).request({ method: 'GET', path: '/v2/x' });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(await settledSoon(pending)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const error = await settledSoon(pending);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toBe('GET /v2/x timed out after 60000 ms');
  });

  it('times out the same way when the caller also passed a signal (both are followed)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let gets = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, async () => {
        gets++;
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const get = rejection(
      testClient().request(
        { method: 'GET', path: '/v2/x' },
        { timeout: 500, maxRetries: 0, signal: controller.signal },
      ),
    );
    await vi.advanceTimersByTimeAsync(500);
    const error = await get;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.message).toBe('GET /v2/x timed out after 500 ms');
    expect(controller.signal.aborted).toBe(false);
    expect(gets).toBe(1);
  });
});
