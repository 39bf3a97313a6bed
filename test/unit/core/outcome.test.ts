import { delay, HttpResponse, http } from 'msw';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
  type TelephonyError,
  ValidationError,
} from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, rejection, testClient } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

const error = (status: number, headers: Record<string, string> = {}) =>
  HttpResponse.json({ status: 'error', code: `c${status}`, message: 'm' }, { status, headers });

/** A client with a static token (no token request), a fake clock and the given fetch or msw. */
const client = (overrides: Parameters<typeof testClient>[0] = {}) =>
  testClient({ accessToken: 'tok', clientId: undefined, clientSecret: undefined, ...overrides });

/** A fetch failing as undici does, with these system codes behind it. */
const failing = (code: string) => () =>
  Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) }));

/** Any C0 or C1 control character, or DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const failure = async (promise: Promise<unknown>) => (await rejection(promise)) as TelephonyError;

afterEach(() => {
  vi.useRealTimers();
});

describe("every rejection says whether the service may have acted ('outcome')", () => {
  it("bad input: 'not_sent', no attempt", async () => {
    const e = await failure(client().calls.get(''));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toMatchObject({ outcome: 'not_sent', attempts: [] });
  });

  it("a refused connection: 'not_sent', for a POST too (retried, each attempt listed)", async () => {
    const e = await failure(
      client({ fetch: failing('ECONNREFUSED') }).request({ method: 'POST', path: '/v2/x', body: {} }),
    );
    expect(e).toBeInstanceOf(APIConnectionError);
    expect(e.outcome).toBe('not_sent');
    expect(e.attempts.map((a) => a.error)).toEqual([
      'APIConnectionError',
      'APIConnectionError',
      'APIConnectionError',
    ]);
    expect(e.attempts[0]?.waitedMs).toBeUndefined();
    expect(e.attempts[1]?.waitedMs).toBeGreaterThan(0);
  });

  it("an abort before sending: 'not_sent'", async () => {
    const controller = new AbortController();
    controller.abort('stop');
    const e = await failure(
      client().request({ method: 'POST', path: '/v2/x', body: {} }, { signal: controller.signal }),
    );
    expect(e).toBeInstanceOf(APIUserAbortError);
    expect(e).toMatchObject({ outcome: 'not_sent', attempts: [] });
    expect(e.requestId).toMatch(/^req_/);
  });

  it("a pause or a spent budget longer than maxRetryAfter: 'not_sent'", async () => {
    const clock = fakeClock();
    let sent = 0;
    server.use(
      http.get(`${BASE}/v2/x`, () =>
        ++sent === 1 ? error(429, { 'Retry-After': '30' }) : HttpResponse.json({}),
      ),
    );
    const paused = client({ clock, maxRetries: 0 });
    expect(await failure(paused.request({ method: 'GET', path: '/v2/x' }))).toMatchObject({
      outcome: 'rejected',
    });
    const e = await failure(paused.request({ method: 'GET', path: '/v2/x' }, { maxRetryAfter: 10 }));
    expect(e).toMatchObject({ code: 'paused', outcome: 'not_sent', attempts: [] });

    const budget = client({ clock, rateLimit: { requestsPerMinute: 1 }, maxRetryAfter: 10 });
    await budget.request({ method: 'GET', path: '/v2/x' });
    const spent = await failure(budget.request({ method: 'GET', path: '/v2/x' }));
    expect(spent).toBeInstanceOf(RateLimitError);
    expect(spent).toMatchObject({ code: 'rate_budget_exhausted', outcome: 'not_sent', attempts: [] });
  });

  it("a 4xx and a 429 after retries: 'rejected', with each attempt's status and the last one's code", async () => {
    server.use(
      http.get(`${BASE}/v2/bad`, () => error(400)),
      http.post(`${BASE}/v2/busy`, () => error(429)),
    );
    const bad = await failure(client().request({ method: 'GET', path: '/v2/bad' }));
    expect(bad).toMatchObject({ outcome: 'rejected', attempts: [{ status: 400, code: 'c400' }] });
    const busy = await failure(client().request({ method: 'POST', path: '/v2/busy', body: {} }));
    expect(busy).toBeInstanceOf(RateLimitError);
    expect(busy.outcome).toBe('rejected');
    expect(busy.attempts.map((a) => a.status)).toEqual([429, 429, 429]);
    expect(busy.attempts.map((a) => a.code)).toEqual([undefined, undefined, 'c429']);
  });

  it("a 5xx to a POST: 'unknown', and the message says to check before retrying", async () => {
    server.use(http.post(`${BASE}/v2/calls`, () => error(500)));
    const e = await failure(
      client().calls.create({
        from: '+15550100',
        to: '+15550101',
        callback_url: 'https://app.test/cb',
      } as never),
    );
    expect(e).toBeInstanceOf(InternalServerError);
    expect(e.outcome).toBe('unknown');
    expect(e.message).toBe(
      'POST /v2/calls: the service may have placed this call; its answer was lost (→ 500 c500: m). Check before retrying.' +
        " To find out, look for it in calls.listRecent({ direction: 'outbound' }); a call placed with an" +
        ' idempotencyKey is found by calls.findByIdempotencyKey.',
    );
    expect(e.attempts).toHaveLength(1);
  });

  it("a 5xx to a GET after its retries: 'rejected' (repeating it is safe), message unchanged", async () => {
    server.use(http.get(`${BASE}/v2/x`, () => error(503)));
    const e = await failure(client().request({ method: 'GET', path: '/v2/x' }));
    expect(e).toMatchObject({ outcome: 'rejected', message: 'GET /v2/x → 503 c503: m' });
    expect(e.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
  });

  it("a time-out after sending: 'unknown'; a POST's message says so", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.use(
      http.post(`${BASE}/v2/x`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const pending = failure(client().request({ method: 'POST', path: '/v2/x', body: {} }, { timeout: 1000 }));
    await vi.advanceTimersByTimeAsync(1000);
    const e = await pending;
    expect(e).toBeInstanceOf(APITimeoutError);
    expect(e.outcome).toBe('unknown');
    expect(e.message).toBe(
      'POST /v2/x: the service may have carried out this request; its answer was lost (timed out after 1000 ms). Check before retrying.',
    );
    expect(e.attempts).toEqual([{ error: 'APITimeoutError', ms: expect.any(Number) }]);
  });

  it("a reset after sending: 'unknown', a POST not retried", async () => {
    let calls = 0;
    const reset = failing('ECONNRESET');
    const e = await failure(
      client({
        fetch: () => {
          calls++;
          return reset();
        },
      }).request({ method: 'POST', path: '/v2/x', body: {} }),
    );
    expect(e).toBeInstanceOf(APIConnectionError);
    expect(e.outcome).toBe('unknown');
    expect(e.message).toMatch(
      /^POST \/v2\/x: the service may have carried out this request; .*Check before retrying\.$/,
    );
    expect(calls).toBe(1);
  });

  it("a malformed answer (not JSON, or not the documented shape): 'unknown'", async () => {
    server.use(
      http.get(
        `${BASE}/v2/x`,
        () => new HttpResponse('<html>', { headers: { 'content-type': 'text/html' } }),
      ),
      http.get(`${BASE}/v2/calls/c1`, () =>
        HttpResponse.json({ status: 'success', data: { call: { id: 1 } } }),
      ),
    );
    const notJson = await failure(client().request({ method: 'GET', path: '/v2/x' }));
    expect(notJson).toBeInstanceOf(ResponseValidationError);
    expect(notJson).toMatchObject({ outcome: 'unknown', attempts: [{ status: 200 }] });
    const guard = await failure(client().calls.get('c1'));
    expect(guard).toBeInstanceOf(ResponseValidationError);
    expect(guard.outcome).toBe('unknown');
  });

  it("a 2xx whose data fails the schema (a call, a list page, after a retry): 'unknown', with the call's attempts and requestId", async () => {
    let answers = 0;
    server.use(
      http.get(`${BASE}/v2/calls/c1`, () =>
        answers++ === 0 ? error(503) : HttpResponse.json({ status: 'success', data: { call: { id: 1 } } }),
      ),
      http.get(`${BASE}/v2/calls/recent`, () =>
        HttpResponse.json({ status: 'success', data: { calls: [{ id: 2 }] }, pagination: {} }),
      ),
    );
    const c = client();
    const ids: string[] = [];
    c.on('request', (e) => ids.push(e.requestId));
    const detail = await failure(c.calls.get('c1'));
    expect(detail).toBeInstanceOf(ResponseValidationError);
    expect(detail).toMatchObject({ outcome: 'unknown', attempts: [{ status: 503 }, { status: 200 }] });
    expect(detail.requestId).toBeDefined();
    expect(new Set(ids)).toEqual(new Set([detail.requestId]));
    ids.length = 0;
    const list = await failure(c.calls.listRecent());
    expect(list).toBeInstanceOf(ResponseValidationError);
    expect(list.message).toContain('data.calls.0');
    expect(list).toMatchObject({ outcome: 'unknown', attempts: [{ status: 200 }] });
    expect(list.requestId).toBeDefined();
    expect(new Set(ids)).toEqual(new Set([list.requestId]));
  });

  it("a failed token request's error, inherited by each call waiting for it: that call's requestId, 'not_sent'", async () => {
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () =>
        HttpResponse.json({ error: 'invalid_client', error_description: 'no' }, { status: 401 }),
      ),
      http.get(`${BASE}/v2/x`, () => HttpResponse.json({})),
    );
    const c = testClient();
    const tokenIds: string[] = [];
    c.on('request', (e) => tokenIds.push(e.requestId));
    const [first, second] = await Promise.all([
      failure(c.request({ method: 'GET', path: '/v2/x' })),
      failure(c.request({ method: 'GET', path: '/v2/x' })),
    ]);
    // One token request, and the calls themselves never sent.
    expect(tokenIds).toHaveLength(1);
    for (const e of [first, second]) {
      expect(e).toBeInstanceOf(AuthenticationError);
      expect(e.message).toMatch(/^POST \/v2\/oauth\/token → 401/);
      expect(e).toMatchObject({ outcome: 'not_sent', attempts: [] });
      expect(e.requestId).toBeDefined();
    }
    expect(new Set([first?.requestId, second?.requestId, tokenIds[0]]).size).toBe(3);
  });

  it('the requestId is the one the events of the call carried', async () => {
    server.use(http.get(`${BASE}/v2/x`, () => error(404)));
    const c = client();
    const ids: string[] = [];
    c.on('request', (e) => ids.push(e.requestId));
    c.on('response', (e) => ids.push(e.requestId));
    const e = await failure(c.request({ method: 'GET', path: '/v2/x' }));
    expect(new Set(ids)).toEqual(new Set([e.requestId]));
  });
});

describe('control characters from an answer are shown escaped in messages', () => {
  it('CR, LF, tab, ESC and C1 in a code, a message and a non-JSON body', async () => {
    server.use(
      http.get(`${BASE}/v2/json`, () =>
        HttpResponse.json(
          { status: 'error', code: 'bad\u001b[31m', message: 'line\r\nINFO forged\tx\u0085y\u007f' },
          { status: 400 },
        ),
      ),
      http.get(`${BASE}/v2/text`, () => new HttpResponse('oops \u001b]0;title\u0007', { status: 502 })),
    );
    const json = await failure(client().request({ method: 'GET', path: '/v2/json' }));
    expect(json.message).toBe('GET /v2/json → 400 bad\\u001b[31m: line\\r\\nINFO forged\\tx\\u0085y\\u007f');
    const text = await failure(client({ maxRetries: 0 }).request({ method: 'GET', path: '/v2/text' }));
    expect(text.message).toBe(
      'GET /v2/text → 502 http_502: HTTP 502, non-JSON body: oops \\u001b]0;title\\u0007',
    );
    for (const message of [json.message, text.message]) expect(message).not.toMatch(CONTROL);
  });

  it('a redirect location', async () => {
    server.use(
      http.get(
        `${BASE}/v2/r`,
        () => new HttpResponse(null, { status: 302, headers: { location: '/a\u001bb' } }),
      ),
    );
    const e = await failure(client().request({ method: 'GET', path: '/v2/r' }));
    expect(e.message).not.toMatch(CONTROL);
    expect(e.message).toContain('/a\\u001bb');
  });
});
