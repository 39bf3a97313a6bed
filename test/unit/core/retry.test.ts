import { HttpResponse, http } from 'msw';
import { APIConnectionError, type HttpMethod, InternalServerError, RateLimitError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import {
  decide,
  failureCodes,
  provablyNeverSent as neverSentCodes,
} from '../../../src/core/transport/retry.js';
import { BASE, CANARY, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

const error = (status: number, headers: Record<string, string> = {}) =>
  HttpResponse.json({ status: 'error', code: `c${status}`, message: 'm' }, { status, headers });

function countingHandler(method: HttpMethod, answer: (n: number) => Response) {
  const counter = { hits: 0 };
  const make = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete }[
    method
  ];
  return { counter, handler: make(`${BASE}/v2/x`, () => answer(++counter.hits)) };
}

function refused(): never {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });
}

describe('retries by method and status', () => {
  it.each(['GET', 'PUT', 'PATCH', 'DELETE'] as const)(
    '%s retries 408/429/5xx up to maxRetries',
    async (method) => {
      for (const status of [408, 429, 500, 502, 503]) {
        const { counter, handler } = countingHandler(method, () => error(status));
        server.use(tokenHandler(), handler);
        const clock = fakeClock();
        await expect(testClient({ clock }).request({ method, path: '/v2/x' })).rejects.toMatchObject({
          status,
        });
        expect(counter.hits).toBe(3);
        expect(clock.waits).toHaveLength(2);
      }
    },
  );

  it('GET succeeds after two 503s, with exponential jittered waits under the cap', async () => {
    const { counter, handler } = countingHandler('GET', (n) =>
      n < 3 ? error(503) : HttpResponse.json({ ok: 1 }),
    );
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    await expect(testClient({ clock }).request({ method: 'GET', path: '/v2/x' })).resolves.toEqual({ ok: 1 });
    expect(counter.hits).toBe(3);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(250);
    expect(clock.waits[0]).toBeLessThanOrEqual(500);
    expect(clock.waits[1]).toBeGreaterThanOrEqual(500);
    expect(clock.waits[1]).toBeLessThanOrEqual(1000);
  });

  it('does not retry 400, 403 or 404', async () => {
    for (const status of [400, 403, 404]) {
      const { counter, handler } = countingHandler('GET', () => error(status));
      server.use(tokenHandler(), handler);
      await expect(testClient().request({ method: 'GET', path: '/v2/x' })).rejects.toMatchObject({ status });
      expect(counter.hits).toBe(1);
    }
  });

  it('POST is not retried on 500, 502, 503 or 408', async () => {
    for (const status of [500, 502, 503, 408]) {
      const { counter, handler } = countingHandler('POST', () => error(status));
      server.use(tokenHandler(), handler);
      const clock = fakeClock();
      await expect(
        testClient({ clock }).request({ method: 'POST', path: '/v2/x', body: {} }),
      ).rejects.toMatchObject({
        status,
      });
      expect(counter.hits).toBe(1);
      expect(clock.waits).toEqual([]);
    }
  });

  it('POST is retried on 429', async () => {
    const { counter, handler } = countingHandler('POST', (n) =>
      n === 1 ? error(429) : HttpResponse.json({ id: 'c1' }),
    );
    server.use(tokenHandler(), handler);
    await expect(testClient().request({ method: 'POST', path: '/v2/x', body: {} })).resolves.toEqual({
      id: 'c1',
    });
    expect(counter.hits).toBe(2);
  });

  it('POST is retried on a refused connection, not on a generic network failure', async () => {
    let attempts = 0;
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/oauth/token'))
        return Response.json({ access_token: CANARY.accessToken, expires_in: 3600 });
      if (++attempts < 3) refused();
      return Response.json({ id: 'c1' }, init);
    };
    await expect(testClient({ fetch }).request({ method: 'POST', path: '/v2/x', body: {} })).resolves.toEqual(
      {
        id: 'c1',
      },
    );
    expect(attempts).toBe(3);

    const { counter, handler } = countingHandler('POST', () => HttpResponse.error());
    server.use(tokenHandler(), handler);
    const failure = await testClient()
      .request({ method: 'POST', path: '/v2/x', body: {} })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(APIConnectionError);
    expect((failure as Error).cause).toBeInstanceOf(TypeError);
    expect(counter.hits).toBe(1);
  });

  it('GET is retried on a network failure, then APIConnectionError', async () => {
    const { counter, handler } = countingHandler('GET', () => HttpResponse.error());
    server.use(tokenHandler(), handler);
    await expect(testClient().request({ method: 'GET', path: '/v2/x' })).rejects.toBeInstanceOf(
      APIConnectionError,
    );
    expect(counter.hits).toBe(3);
  });

  it('honours per-call maxRetries', async () => {
    const { counter, handler } = countingHandler('GET', () => error(500));
    server.use(tokenHandler(), handler);
    await expect(
      testClient().request({ method: 'GET', path: '/v2/x' }, { maxRetries: 0 }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(counter.hits).toBe(1);
  });
});

describe('Retry-After', () => {
  it('waits exactly the seconds asked', async () => {
    const { counter, handler } = countingHandler('GET', (n) =>
      n === 1 ? error(429, { 'Retry-After': '3' }) : HttpResponse.json({ ok: 1 }),
    );
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    await testClient({ clock }).request({ method: 'GET', path: '/v2/x' });
    expect(counter.hits).toBe(2);
    expect(clock.waits).toEqual([3000]);
  });

  it('waits until an HTTP-date, on a 503', async () => {
    const clock = fakeClock();
    const date = new Date(clock.now() + 7000).toUTCString();
    const { handler } = countingHandler('GET', (n) =>
      n === 1 ? error(503, { 'Retry-After': date }) : HttpResponse.json({ ok: 1 }),
    );
    server.use(tokenHandler(), handler);
    await testClient({ clock }).request({ method: 'GET', path: '/v2/x' });
    expect(clock.waits).toEqual([7000]);
  });

  it('longer than maxRetryAfter: RateLimitError at once with retryAfter, no wait', async () => {
    const { counter, handler } = countingHandler('GET', () => error(429, { 'Retry-After': '120' }));
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    await expect(
      testClient({ clock, maxRetryAfter: 60 }).request({ method: 'GET', path: '/v2/x' }),
    ).rejects.toMatchObject({
      constructor: RateLimitError,
      status: 429,
      retryAfter: 120,
    });
    expect(counter.hits).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it('maxRetryAfter defaults to 60 s: 60 is waited, 61 fails at once', async () => {
    const { counter, handler } = countingHandler('GET', (n) =>
      n === 1 ? error(429, { 'Retry-After': '60' }) : error(429, { 'Retry-After': '61' }),
    );
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    await expect(testClient({ clock }).request({ method: 'GET', path: '/v2/x' })).rejects.toMatchObject({
      constructor: RateLimitError,
      retryAfter: 61,
    });
    expect(counter.hits).toBe(2);
    expect(clock.waits).toEqual([60_000]);
  });

  it('per-call maxRetryAfter overrides the client option, both ways', async () => {
    const { counter, handler } = countingHandler('GET', () => error(429, { 'Retry-After': '10' }));
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    const client = testClient({ clock, maxRetryAfter: 60, maxRetries: 1 });
    await expect(
      client.request({ method: 'GET', path: '/v2/x' }, { maxRetryAfter: 5 }),
    ).rejects.toMatchObject({ constructor: RateLimitError, retryAfter: 10 });
    expect(counter.hits).toBe(1);
    expect(clock.waits).toEqual([]);

    const patient = testClient({ clock, maxRetryAfter: 5, maxRetries: 1 });
    await expect(
      patient.request({ method: 'GET', path: '/v2/x' }, { maxRetryAfter: 10 }),
    ).rejects.toBeInstanceOf(RateLimitError);
    expect(counter.hits).toBe(3);
    expect(clock.waits).toEqual([10_000]);
  });

  it('a 503 Retry-After beyond maxRetryAfter fails at once with InternalServerError, no wait', async () => {
    const { counter, handler } = countingHandler('GET', () => error(503, { 'Retry-After': '600' }));
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    await expect(testClient({ clock }).request({ method: 'GET', path: '/v2/x' })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(counter.hits).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it('a POST 429 waits its Retry-After, then the call goes through once', async () => {
    const { counter, handler } = countingHandler('POST', (n) =>
      n === 1 ? error(429, { 'Retry-After': '4' }) : HttpResponse.json({ id: 'c1' }),
    );
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    await testClient({ clock }).request({ method: 'POST', path: '/v2/x', body: {} });
    expect(counter.hits).toBe(2);
    expect(clock.waits).toEqual([4000]);
  });

  it('429 after retries are spent: RateLimitError with retryAfter', async () => {
    const { counter, handler } = countingHandler('GET', () => error(429, { 'Retry-After': '2' }));
    server.use(tokenHandler(), handler);
    const clock = fakeClock();
    await expect(testClient({ clock }).request({ method: 'GET', path: '/v2/x' })).rejects.toMatchObject({
      constructor: RateLimitError,
      retryAfter: 2,
      code: 'c429',
    });
    expect(counter.hits).toBe(3);
    expect(clock.waits).toEqual([2000, 2000]);
  });
});

describe('policy', () => {
  const GET = { maxRetries: 99, maxRetryAfterMs: 60_000, idempotent: true };
  const retried = (retries: number) => ({ retries, repeated401: true });

  it('backoff is min(8 s, 0.5 s · 2^n): half fixed, half random', () => {
    const delay = (retries: number, random: number) => {
      const d = decide(
        { kind: 'answer', status: 500, retryAfterMs: undefined },
        retried(retries),
        GET,
        random,
      );
      return d.action === 'wait' ? d.ms : undefined;
    };
    const ceilings = [500, 1000, 2000, 4000, 8000, 8000, 8000];
    ceilings.forEach((ceiling, n) => {
      expect(delay(n, 0)).toBe(ceiling / 2);
      expect(delay(n, 0.5)).toBe((ceiling * 3) / 4);
      expect(delay(n, 0.999_999)).toBe(ceiling);
    });
  });

  it('gives up once maxRetries retries were made, whatever the outcome', () => {
    const two = { ...GET, maxRetries: 2 };
    for (const outcome of [
      { kind: 'answer', status: 429, retryAfterMs: 1000 },
      { kind: 'timeout' },
      { kind: 'connection', neverSent: true },
    ] as const) {
      expect(decide(outcome, retried(1), two, 0)).toMatchObject({ action: 'wait' });
      expect(decide(outcome, retried(2), two, 0)).toEqual({ action: 'give_up' });
    }
  });

  it('repeats a 401 once, at once, and not as a retry (even with no retry left)', () => {
    const none = { ...GET, maxRetries: 0 };
    const unauthorized = { kind: 'answer', status: 401, retryAfterMs: undefined } as const;
    expect(decide(unauthorized, { retries: 0, repeated401: false }, none)).toEqual({ action: 'repeat_401' });
    expect(decide(unauthorized, { retries: 0, repeated401: true }, GET)).toEqual({ action: 'give_up' });
  });

  it('waits a Retry-After exactly, and gives up at once past maxRetryAfter', () => {
    const limited = { kind: 'answer', status: 429, retryAfterMs: 60_001 } as const;
    expect(decide({ ...limited, retryAfterMs: 60_000 }, retried(0), GET)).toEqual({
      action: 'wait',
      ms: 60_000,
      reason: 'status 429',
    });
    expect(decide(limited, retried(0), GET)).toEqual({ action: 'give_up' });
  });

  it('caps the backoff at 8 s', () => {
    const d = decide({ kind: 'timeout' }, retried(10), GET, 0.999);
    expect(d).toMatchObject({ action: 'wait' });
    expect(d.action === 'wait' && d.ms).toBeLessThanOrEqual(8000);
  });

  it("names the reason: 'status 503', 'timeout', 'connection'", () => {
    const reason = (outcome: Parameters<typeof decide>[0]) => {
      const d = decide(outcome, retried(0), GET, 0);
      return d.action === 'wait' ? d.reason : undefined;
    };
    expect(reason({ kind: 'answer', status: 503, retryAfterMs: undefined })).toBe('status 503');
    expect(reason({ kind: 'timeout' })).toBe('timeout');
    expect(reason({ kind: 'connection', neverSent: false })).toBe('connection');
  });

  it('POST timeouts, resets and 5xx are never retried; a 429 and a connection never made are', () => {
    const POST = { ...GET, idempotent: false };
    expect(decide({ kind: 'timeout' }, retried(0), POST)).toEqual({ action: 'give_up' });
    expect(decide({ kind: 'connection', neverSent: false }, retried(0), POST)).toEqual({ action: 'give_up' });
    expect(decide({ kind: 'answer', status: 500, retryAfterMs: undefined }, retried(0), POST)).toEqual({
      action: 'give_up',
    });
    expect(decide({ kind: 'connection', neverSent: true }, retried(0), POST)).toMatchObject({
      action: 'wait',
    });
    expect(decide({ kind: 'answer', status: 429, retryAfterMs: undefined }, retried(0), POST)).toMatchObject({
      action: 'wait',
    });
  });

  it('detects never-sent failures from cause.code, including AggregateError causes', () => {
    const err = (cause: unknown) => new TypeError('fetch failed', { cause });
    const provablyNeverSent = (error: unknown) => neverSentCodes(failureCodes(error));
    expect(provablyNeverSent(err({ code: 'ENOTFOUND' }))).toBe(true);
    expect(provablyNeverSent(err({ code: 'ECONNRESET' }))).toBe(false);
    expect(provablyNeverSent(err({ errors: [{ code: 'ECONNREFUSED' }, { code: 'EAI_AGAIN' }] }))).toBe(true);
    expect(provablyNeverSent(err({ errors: [{ code: 'ECONNREFUSED' }, { code: 'ETIMEDOUT' }] }))).toBe(false);
    expect(provablyNeverSent(new TypeError('Failed to fetch'))).toBe(false);
    // The aggregate's own code does not vouch for attempts that failed otherwise.
    expect(
      provablyNeverSent(
        err({ code: 'ECONNREFUSED', errors: [{ code: 'ECONNREFUSED' }, { code: 'ETIMEDOUT' }] }),
      ),
    ).toBe(false);
  });

  it('a connection error names the origin it tried and the system codes behind the failure', async () => {
    const failing = (cause?: unknown) => () => Promise.reject(new TypeError('fetch failed', { cause }));
    const message = async (fetch: typeof globalThis.fetch) =>
      (await rejection(testClient({ fetch, accessToken: 'tok', maxRetries: 0 }).calls.get('c1'))).message;
    expect(await message(failing({ code: 'ECONNREFUSED' }))).toBe(
      `GET /v2/calls/c1 failed: no HTTP answer from ${new URL(BASE).origin} (ECONNREFUSED)`,
    );
    expect(await message(failing({ errors: [{ code: 'ECONNREFUSED' }, { code: 'ETIMEDOUT' }] }))).toMatch(
      /no HTTP answer from https?:\/\/[^ ]+ \(ECONNREFUSED, ETIMEDOUT\)$/,
    );
    expect(await message(failing(new Error('bad port')))).toMatch(/no HTTP answer from https?:\/\/[^ ]+$/);
  });
});
