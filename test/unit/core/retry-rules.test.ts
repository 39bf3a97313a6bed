import { HttpResponse, http } from 'msw';
import { AuthenticationError, InternalServerError, TelephonyClient, ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/core/transport/retry.js';
import { BASE, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

describe('methods through client.request', () => {
  it.each(['post', 'Post'])("'%s' is a POST: not re-sent after a 500", async (method) => {
    let posts = 0;
    server.use(
      tokenHandler(),
      http.post(`${BASE}/v2/calls`, () => {
        posts++;
        return HttpResponse.json({ status: 'error', code: 'internal_error', message: 'm' }, { status: 500 });
      }),
    );
    const error = await rejection(
      testClient().request({ method: method as 'post', path: '/v2/calls', body: { to: '+1' } }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(posts).toBe(1);
  });

  it("'get' is a GET: retried after a 503", async () => {
    let gets = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => HttpResponse.json({}, { status: ++gets < 3 ? 503 : 200 })),
    );
    await testClient().request({ method: 'get', path: '/v2/x' });
    expect(gets).toBe(3);
  });

  it.each(['TRACE', 'CONNECT', 'HEAD', '', 'GET ', 42])(
    'refuses method %j before sending anything',
    async (method) => {
      let tokens = 0;
      server.use(tokenHandler({ onRequest: () => tokens++ }));
      const error = await rejection(testClient().request({ method: method as 'GET', path: '/v2/x' }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as unknown as ValidationError).issues).toEqual([
        { path: 'method', message: 'must be one of GET, POST, PUT, PATCH, DELETE' },
      ]);
      expect(tokens).toBe(0);
    },
  );
});

describe('Retry-After parsing', () => {
  const now = Date.UTC(2025, 0, 15, 9, 0, 0);

  it('reads delta-seconds, decimals as seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an IMF-fixdate, in the future or past (0)', () => {
    expect(parseRetryAfter('Wed, 15 Jan 2025 09:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 15 Jan 2025 08:00:00 GMT', now)).toBe(0);
    // The weekday is not compared (the date decides), as RFC 9110 lets a recipient do.
    expect(parseRetryAfter('Mon, 15 Jan 2025 09:00:30 GMT', now)).toBe(30_000);
  });

  it.each([
    '1.5.2',
    '-1',
    '+3',
    '1e3',
    '2025-01-15T09:00:30Z',
    'Wednesday, 15-Jan-25 09:00:30 GMT',
    'Wed Jan 15 09:00:30 2025',
    'Wed, 15 Jan 2025 09:00:30 UTC',
    'Wed, 31 Feb 2025 09:00:30 GMT',
    'Wed, 15 Jan 2025 24:00:00 GMT',
    'Wed, 15 Jan 2025 09:60:00 GMT',
    'Wed, 15 Foo 2025 09:00:30 GMT',
    // Date.parse moves years 0000–0099 to 1950–2049: not the date the header names.
    'Sat, 15 Jan 0050 09:00:30 GMT',
    'soon',
    '',
  ])('refuses %j (other forms V8 would read as a date)', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });

  /** The waits of a GET answered once with `status` and `Retry-After: header`, then 200. */
  async function waitsAfter(status: number, header: string): Promise<number[]> {
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () =>
        ++hits === 1
          ? HttpResponse.json({}, { status, headers: { 'Retry-After': header } })
          : HttpResponse.json({}),
      ),
    );
    const clock = fakeClock();
    await testClient({ clock }).request({ method: 'GET', path: '/v2/x' });
    return clock.waits;
  }

  it("a 429 with 'Retry-After: 1.5' waits 1.5 s, not 0", async () => {
    expect(await waitsAfter(429, '1.5')).toEqual([1500]);
  });

  it('an unreadable Retry-After falls back to the jittered backoff', async () => {
    const waits = await waitsAfter(503, 'soon');
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(250);
    expect(waits[0]).toBeLessThanOrEqual(500);
  });
});

describe('the retry budget across a 401 refresh', () => {
  function service(statuses: number[]) {
    const counts = { tokens: 0, hits: 0 };
    server.use(
      tokenHandler({ onRequest: () => counts.tokens++ }),
      http.get(`${BASE}/v2/x`, () => {
        const status = statuses[counts.hits++] ?? 500;
        return HttpResponse.json({ status: 'error', code: `c${status}`, message: 'm' }, { status });
      }),
    );
    return counts;
  }

  it('maxRetries: 2 makes at most 3 attempts plus the one repeat after a 401', async () => {
    const counts = service([500, 500, 401, 500, 500, 500]);
    const error = await rejection(testClient({ maxRetries: 2 }).request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(counts).toEqual({ tokens: 2, hits: 4 });
  });

  it('a 401 is refreshed once even with maxRetries: 0', async () => {
    const counts = service([401, 200]);
    await testClient({ maxRetries: 0 }).request({ method: 'GET', path: '/v2/x' });
    expect(counts).toEqual({ tokens: 2, hits: 2 });
  });

  it('a second 401 is final: AuthenticationError after one refresh', async () => {
    const counts = service([401, 401, 401]);
    const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(counts).toEqual({ tokens: 2, hits: 2 });
  });

  it('a fixed credential (API key, static token) gets no repeat after a 401', async () => {
    const counts = service([401, 200]);
    const client = new TelephonyClient({ baseUrl: BASE, accessToken: 'static-token', clock: fakeClock() });
    expect(await rejection(client.request({ method: 'GET', path: '/v2/x' }))).toBeInstanceOf(
      AuthenticationError,
    );
    expect(counts.hits).toBe(1);
  });
});
