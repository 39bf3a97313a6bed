import { inspect } from 'node:util';
import { delay, HttpResponse, http } from 'msw';
import { APIConnectionError, APITimeoutError, APIUserAbortError } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, CANARY, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

afterEach(() => {
  vi.useRealTimers();
});

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
