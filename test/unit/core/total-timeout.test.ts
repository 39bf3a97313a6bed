import { delay, HttpResponse, http } from 'msw';
import { APITimeoutError, type TelephonyError, ValidationError } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, testClient } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as TelephonyError,
  );

describe('totalTimeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("an attempt it cuts short is recorded as a time-out, as the call's error is", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let answering = () => {};
    const reached = new Promise<void>((resolve) => {
      answering = resolve;
    });
    server.use(
      http.get(`${BASE}/v2/x`, async () => {
        answering();
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const clock = { now: () => Date.now(), sleep: () => Promise.resolve() };
    const pending = failure(
      testClient({ clock, accessToken: 'tok' }).request(
        { method: 'GET', path: '/v2/x' },
        { timeout: 60_000, totalTimeout: 500 },
      ),
    );
    await reached;
    await vi.advanceTimersByTimeAsync(500);
    const error = await pending;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error?.message).toBe('GET /v2/x passed its totalTimeout of 500 ms');
    expect(error?.attempts).toEqual([{ ms: expect.any(Number), error: 'APITimeoutError' }]);
  });

  it('a Retry-After that would pass it rejects at once, without the wait', async () => {
    let hits = 0;
    server.use(
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        return HttpResponse.json(
          { code: 'rate_limit_exceeded' },
          { status: 429, headers: { 'Retry-After': '30' } },
        );
      }),
    );
    const clock = fakeClock();
    const client = testClient({ clock, accessToken: 'tok' });
    const error = await failure(client.request({ method: 'GET', path: '/v2/x' }, { totalTimeout: 10_000 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error?.message).toBe('GET /v2/x passed its totalTimeout of 10000 ms');
    expect(error?.outcome).toBe('not_sent');
    expect(hits).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it("bounds the backoff waits of a client's own totalTimeout: waits that fit are made, the next is refused", async () => {
    let hits = 0;
    server.use(
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        return HttpResponse.json({}, { status: 503, headers: { 'Retry-After': '4' } });
      }),
    );
    const clock = fakeClock();
    const client = testClient({ clock, accessToken: 'tok', totalTimeout: 9_000, maxRetries: 5 });
    const error = await failure(client.request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(APITimeoutError);
    // 4 s + 4 s fit in 9 s; the third 4 s would not. A 503 to a GET may have acted: unknown.
    expect(clock.waits).toEqual([4000, 4000]);
    expect(hits).toBe(3);
    expect(error?.outcome).toBe('unknown');
    expect(error?.attempts).toHaveLength(3);
  });

  it('a call without one waits as before; a bad value is a ValidationError naming it', async () => {
    let hits = 0;
    server.use(
      http.get(`${BASE}/v2/x`, () =>
        ++hits === 1
          ? HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '30' } })
          : HttpResponse.json({}),
      ),
    );
    const clock = fakeClock();
    await testClient({ clock, accessToken: 'tok' }).request({ method: 'GET', path: '/v2/x' });
    expect(clock.waits).toEqual([30_000]);
    await expect(
      testClient({ accessToken: 'tok' }).request({ method: 'GET', path: '/v2/x' }, { totalTimeout: 0 }),
    ).rejects.toMatchObject({ issues: [{ path: 'totalTimeout' }] });
    expect(() => testClient({ totalTimeout: -1 })).toThrow(ValidationError);
  });
});
