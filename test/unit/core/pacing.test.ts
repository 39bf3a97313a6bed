import { HttpResponse, http } from 'msw';
import {
  APIUserAbortError,
  RateLimitError,
  type SharedState,
  type SharedStateErrorEvent,
  type ThrottleEvent,
  ValidationError,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { MemoryState } from '../../../src/core/pacing/shared-state.js';
import { BASE, BASE_V1, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

const WINDOW = 61_000; // 60 s plus the client's safety second

/** GET /v2/x and /v1/y answer 200 and record the fake clock's time of each request. */
function service(clock: { now(): number }) {
  const sent: Array<{ path: string; at: number }> = [];
  server.use(
    tokenHandler(),
    http.get(`${BASE}/v2/x`, () => {
      sent.push({ path: '/v2/x', at: clock.now() });
      return HttpResponse.json({});
    }),
    http.get(`${BASE_V1}/v1/y`, () => {
      sent.push({ path: '/v1/y', at: clock.now() });
      return HttpResponse.json({});
    }),
  );
  return sent;
}

describe('rateLimit paces requests', () => {
  it('sends the budget at once, then each call a whole window after the one the budget places back', async () => {
    const clock = fakeClock();
    const start = clock.now();
    const sent = service(clock);
    const client = testClient({ clock, rateLimit: { requestsPerMinute: 3 } });
    const throttles: ThrottleEvent[] = [];
    client.on('throttle', (event) => throttles.push(event));
    for (let i = 0; i < 5; i++) await client.request({ method: 'GET', path: '/v2/x' });
    expect(sent.map((s) => s.at - start)).toEqual([0, 0, 0, WINDOW, WINDOW]);
    expect(throttles).toEqual([{ waitMs: WINDOW, reason: 'pacing' }]);
  });

  it('never lets a window of the budget hold more than the limit (200 calls, limit 7)', async () => {
    const clock = fakeClock();
    const sent = service(clock);
    const client = testClient({ clock, rateLimit: { requestsPerMinute: 7 }, maxRetryAfter: 3600 });
    for (let i = 0; i < 200; i++) await client.request({ method: 'GET', path: '/v2/x' });
    const times = sent.map((s) => s.at);
    for (let i = 7; i < times.length; i++) expect(times[i]! - times[i - 7]!).toBeGreaterThanOrEqual(WINDOW);
  });

  it("v1 has its own budget of the same size (a plan's name)", async () => {
    const clock = fakeClock();
    const sent = service(clock);
    const client = testClient({ clock, rateLimit: 'starter' });
    const throttles: ThrottleEvent[] = [];
    client.on('throttle', (event) => throttles.push(event));
    for (let i = 0; i < 100; i++) await client.request({ method: 'GET', path: '/v2/x' });
    for (let i = 0; i < 100; i++) await client.request({ method: 'GET', path: '/v1/y' });
    expect(throttles).toEqual([]);
    await client.request({ method: 'GET', path: '/v1/y' });
    expect(throttles).toEqual([{ waitMs: WINDOW, reason: 'pacing' }]);
    expect(sent).toHaveLength(201);
  });

  it('a wait longer than maxRetryAfter rejects at once with RateLimitError, sending nothing', async () => {
    const clock = fakeClock();
    const sent = service(clock);
    const client = testClient({ clock, rateLimit: { requestsPerMinute: 1 }, maxRetryAfter: 10 });
    await client.request({ method: 'GET', path: '/v2/x' });
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_budget_exhausted', retryAfter: 61 });
    expect(sent).toHaveLength(1);
    expect(clock.waits).toEqual([]);
    // The refused calls took no slot: a call that accepts the wait gets the next one, a window on.
    await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    await client.request({ method: 'GET', path: '/v2/x' }, { maxRetryAfter: 120 });
    expect(clock.waits).toEqual([WINDOW]);
  });

  it("a 401 repeat after a 429's retry books a slot of its own: the retry used the refused one", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const sent: number[] = [];
    server.use(
      http.get(`${BASE}/v2/x`, () => {
        sent.push(clock.now() - start);
        if (sent.length === 1) return HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '1' } });
        if (sent.length === 2) return HttpResponse.json({}, { status: 401 });
        return HttpResponse.json({});
      }),
    );
    const client = testClient({
      clock,
      accessToken: async () => 'tok',
      rateLimit: { requestsPerMinute: 1 },
      maxRetryAfter: 3600,
    });
    await client.request({ method: 'GET', path: '/v2/x' });
    // The first attempt took the minute's one slot; the 429's retry sent in it; the repeat waits for the next.
    expect(sent).toEqual([0, 1_000, WINDOW]);
  });

  it("the call's signal aborts the wait for budget", async () => {
    const clock = fakeClock();
    service(clock);
    const client = testClient({ clock, rateLimit: { requestsPerMinute: 1 } });
    await client.request({ method: 'GET', path: '/v2/x' });
    const controller = new AbortController();
    client.on('throttle', () => controller.abort('shutting down'));
    const error = await rejection(
      client.request({ method: 'GET', path: '/v2/x' }, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.cause).toBe('shutting down');
  });

  it('refuses a rate that is not a plan or a whole number ≥ 1, and a sharedState that is not one', () => {
    for (const rateLimit of ['gold', { requestsPerMinute: 0 }, { requestsPerMinute: 1.5 }, true, 100]) {
      expect(() => testClient({ rateLimit: rateLimit as 'pro' })).toThrow(ValidationError);
    }
    expect(() => testClient({ sharedState: {} as SharedState })).toThrow(ValidationError);
  });
});

describe("a 429's Retry-After pauses the account", () => {
  it('every call of the client waits for the pause, without rateLimit', async () => {
    const clock = fakeClock();
    const start = clock.now();
    const sent: number[] = [];
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        sent.push(clock.now() - start);
        return hits === 1
          ? HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '30' } })
          : HttpResponse.json({});
      }),
    );
    const client = testClient({ clock, maxRetries: 0 });
    const throttles: ThrottleEvent[] = [];
    client.on('throttle', (event) => throttles.push(event));
    expect(await rejection(client.request({ method: 'GET', path: '/v2/x' }))).toBeInstanceOf(RateLimitError);
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(sent).toEqual([0, 30_000]);
    expect(throttles).toEqual([{ waitMs: 30_000, reason: 'paused' }]);
  });

  it('clients sharing one state share the pause', async () => {
    const clock = fakeClock();
    const state = new MemoryState();
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () =>
        ++hits === 1
          ? HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '5' } })
          : HttpResponse.json({}),
      ),
    );
    const first = testClient({ clock, sharedState: state, maxRetries: 0 });
    const second = testClient({ clock, sharedState: state });
    await rejection(first.request({ method: 'GET', path: '/v2/x' }));
    const throttles: ThrottleEvent[] = [];
    second.on('throttle', (event) => throttles.push(event));
    await second.request({ method: 'GET', path: '/v2/x' });
    expect(throttles).toEqual([{ waitMs: 5_000, reason: 'paused' }]);
  });
});

describe('a failing shared state never fails a call', () => {
  it("a store that rejects: the call goes on with local state, 'shared_state_error' names the operation", async () => {
    const clock = fakeClock();
    const sent = service(clock);
    // Every operation rejects; the optional `fleetBudget` (redisState's) is absent.
    const failing = new Proxy({} as SharedState, {
      get: (_, name) =>
        name === 'fleetBudget'
          ? undefined
          : async () => {
              throw new Error('ECONNREFUSED 127.0.0.1:6379');
            },
    });
    const client = testClient({ clock, sharedState: failing, rateLimit: { requestsPerMinute: 2 } });
    const errors: SharedStateErrorEvent[] = [];
    client.on('shared_state_error', (event) => errors.push(event));
    for (let i = 0; i < 3; i++) await client.request({ method: 'GET', path: '/v2/x' });
    expect(sent).toHaveLength(3);
    // One failure (the token, asked first), then the store is left alone for a while: the local
    // token request and the local budget serve, and the third call is paced locally.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ operation: 'readToken' });
    expect(errors[0]!.error.message).toBe('ECONNREFUSED 127.0.0.1:6379');
    expect(clock.waits).toEqual([WINDOW]);
  });
});

describe('a pause lasts at most maxRetryAfter (issue 18)', () => {
  /** GET /v2/x answers 429 with `retryAfter` once, then 200; records when each request was sent. */
  function pausingService(clock: { now(): number }, retryAfter: string) {
    const sent: number[] = [];
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => {
        sent.push(clock.now());
        return sent.length === 1
          ? HttpResponse.json({}, { status: 429, headers: { 'Retry-After': retryAfter } })
          : HttpResponse.json({});
      }),
    );
    return sent;
  }

  it.each(['86400', '99999999999'])(
    'Retry-After %s pauses the client for maxRetryAfter (default 60 s), then the next call goes out',
    async (retryAfter) => {
      const clock = fakeClock();
      const sent = pausingService(clock, retryAfter);
      const client = testClient({ clock, maxRetries: 0 });
      const throttles: ThrottleEvent[] = [];
      client.on('throttle', (event) => throttles.push(event));
      const first = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
      expect(first).toBeInstanceOf(RateLimitError);
      expect(first).toMatchObject({ status: 429, retryAfter: Number(retryAfter) });
      await client.request({ method: 'GET', path: '/v2/x' });
      expect(throttles).toEqual([{ waitMs: 60_000, reason: 'paused' }]);
      expect(sent.map((at) => at - sent[0]!)).toEqual([0, 60_000]);
    },
  );

  it('the cap is the maxRetryAfter of the client that met the 429, and it is what the shared state stores', async () => {
    const clock = fakeClock();
    pausingService(clock, '86400');
    const state = new MemoryState();
    const pauses: number[] = [];
    const recording = new Proxy(state, {
      get: (target, name) =>
        name === 'pause'
          ? (scope: string, ms: number, now: number) => {
              pauses.push(ms);
              return target.pause(scope, ms, now);
            }
          : Reflect.get(target, name).bind(target),
    }) as SharedState;
    const first = testClient({ clock, sharedState: recording, maxRetries: 0, maxRetryAfter: 5 });
    await rejection(first.request({ method: 'GET', path: '/v2/x' }));
    expect(pauses).toEqual([5_000]);
    const other = testClient({ clock, sharedState: recording, maxRetryAfter: 3600 });
    const throttles: ThrottleEvent[] = [];
    other.on('throttle', (event) => throttles.push(event));
    await other.request({ method: 'GET', path: '/v2/x' });
    expect(throttles).toEqual([{ waitMs: 5_000, reason: 'paused' }]);
  });

  it("a call refused during a pause: RateLimitError code 'paused', retryAfter the seconds left, a message about the 429", async () => {
    const clock = fakeClock();
    const sent = pausingService(clock, '30');
    const client = testClient({ clock, maxRetries: 0 });
    await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    clock.advance(12_000);
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }, { maxRetryAfter: 10 }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'paused', retryAfter: 18, apiVersion: 'v2' });
    expect(error.message).toMatch(/a 429 .*paused/);
    expect(error.message).not.toMatch(/rateLimit|budget/);
    expect(sent).toHaveLength(1);
    expect(clock.waits).toEqual([]);
    // The call's own maxRetryAfter decides: one that accepts 18 s waits them, then goes out.
    await client.request({ method: 'GET', path: '/v2/x' }, { maxRetryAfter: 20 });
    expect(clock.waits).toEqual([18_000]);
    expect(sent).toHaveLength(2);
  });

  it("with rateLimit too, a call refused for a pause says 'paused'; one refused for budget 'rate_budget_exhausted'", async () => {
    const clock = fakeClock();
    const sent = pausingService(clock, '30');
    const client = testClient({
      clock,
      maxRetries: 0,
      rateLimit: { requestsPerMinute: 5 },
      maxRetryAfter: 10,
    });
    await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    const paused = await rejection(client.request({ method: 'GET', path: '/v2/x' }, { maxRetryAfter: 5 }));
    expect(paused).toMatchObject({ code: 'paused', retryAfter: 10 });
    clock.advance(10_000);
    for (let i = 0; i < 4; i++) await client.request({ method: 'GET', path: '/v2/x' });
    const spent = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    expect(spent).toMatchObject({ code: 'rate_budget_exhausted', retryAfter: 51 });
    expect(spent.message).toContain('rateLimit');
    expect(sent).toHaveLength(5);
  });
});
