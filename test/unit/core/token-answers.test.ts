import { HttpResponse, http } from 'msw';
import { APIConnectionError, AuthenticationError, type TokenEvent } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, rejection, testClient } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

// API.md, Answers the SDK does not trust, "Tokens": a token endpoint that is down sees a trickle, not
// three requests per call; an `expires_in` that is a numeric string, missing or 0 does not fail calls,
// and a token is never used past the life its answer gave it (token-lifetime.test.ts).

const get = { method: 'GET', path: '/v2/x' } as const;

/** A token endpoint with no answer at all (connection failure), counting its requests. */
function deadEndpoint() {
  const counts = { tokens: 0, calls: 0 };
  server.use(
    http.post(`${BASE}/v2/oauth/token`, () => {
      counts.tokens++;
      return HttpResponse.error();
    }),
    http.get(`${BASE}/v2/x`, () => {
      counts.calls++;
      return HttpResponse.json({});
    }),
  );
  return counts;
}

/** A token endpoint answering `body` (then `at_2`, `at_3` … as access tokens), counting its requests. */
function tokenAnswers(body: Record<string, unknown>) {
  const counts = { tokens: 0, calls: 0 };
  server.use(
    http.post(`${BASE}/v2/oauth/token`, () =>
      HttpResponse.json({ ...body, access_token: `at_${++counts.tokens}` }),
    ),
    http.get(`${BASE}/v2/x`, () => {
      counts.calls++;
      return HttpResponse.json({});
    }),
  );
  return counts;
}

describe('a token endpoint that is down sees a trickle', () => {
  it('10 calls one after another: one token request (and its 2 retries), the other 9 fail at once with its error', async () => {
    const counts = deadEndpoint();
    const clock = fakeClock();
    const client = testClient({ clock });
    const errors = [];
    for (let i = 0; i < 10; i++) errors.push(await rejection(client.request(get)));
    expect(counts).toEqual({ tokens: 3, calls: 0 });
    for (const error of errors) {
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error.message).toBe('POST /v2/oauth/token failed: no HTTP answer from https://api.test');
    }
    // Only the token request's own retries waited; the failed calls waited for nothing.
    expect(clock.waits).toHaveLength(2);
  });

  it('10 concurrent calls: one token request (and its retries) serves them all', async () => {
    const counts = deadEndpoint();
    const client = testClient();
    const errors = await Promise.all(Array.from({ length: 10 }, () => rejection(client.request(get))));
    expect(counts).toEqual({ tokens: 3, calls: 0 });
    expect(errors.every((error) => error instanceof APIConnectionError)).toBe(true);
  });

  it('after the back-off (1 s, then 2 s …) one call makes one new token request', async () => {
    let down = true;
    let tokens = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () => {
        tokens++;
        return down
          ? new HttpResponse('<html>bad gateway</html>', { status: 502 })
          : HttpResponse.json({ access_token: 'at_up', expires_in: 3600 });
      }),
      http.get(`${BASE}/v2/x`, () => HttpResponse.json({})),
    );
    const clock = fakeClock();
    const client = testClient({ clock, maxRetries: 0 });
    expect(await rejection(client.request(get))).toBeInstanceOf(AuthenticationError);
    expect(tokens).toBe(1);
    clock.advance(999);
    expect(await rejection(client.request(get))).toBeInstanceOf(AuthenticationError);
    expect(tokens).toBe(1);
    clock.advance(1);
    await rejection(client.request(get));
    expect(tokens).toBe(2);
    clock.advance(1_999);
    await rejection(client.request(get));
    expect(tokens).toBe(2);
    clock.advance(1);
    down = false;
    await client.request(get);
    await client.request(get);
    expect(tokens).toBe(3);
  });
});

/** A client on a fake clock, and the 'token' events it emits. */
function watched() {
  const clock = fakeClock();
  const client = testClient({ clock });
  const events: TokenEvent[] = [];
  client.on('token', (event) => events.push(event));
  return { clock, client, events };
}

describe('expires_in the SDK does not trust', () => {
  it('a numeric string is read as seconds', async () => {
    const counts = tokenAnswers({ expires_in: '3600' });
    const { clock, client, events } = watched();
    await client.request(get);
    clock.advance(3_000_000);
    await client.request(get);
    expect(counts).toEqual({ tokens: 1, calls: 2 });
    expect(events).toEqual([{ expires_in: 3600, scope: undefined }]);
  });

  it.each([
    ['missing', {}],
    ['null', { expires_in: null }],
    ['not a number', { expires_in: 'soon' }],
    ['not finite', { expires_in: '9'.repeat(400) }],
  ])('%s: the token is used for 300 s (renewed from 240 s)', async (_name, body) => {
    const counts = tokenAnswers(body);
    const { clock, client, events } = watched();
    await client.request(get);
    clock.advance(240_000 - 1);
    await client.request(get);
    expect(counts).toEqual({ tokens: 1, calls: 2 });
    expect(events).toEqual([{ expires_in: 300, scope: undefined }]);
    clock.advance(60_001);
    await client.request(get);
    expect(counts).toEqual({ tokens: 2, calls: 3 });
  });

  it.each([0, -5, '0'])(
    'expires_in %j: the token serves only the calls that waited for it, and token requests are 1 s apart',
    async (expiresIn) => {
      const counts = tokenAnswers({ expires_in: expiresIn });
      const { clock, client, events } = watched();
      for (let i = 0; i < 5; i++) await client.request(get);
      await Promise.all(Array.from({ length: 20 }, () => client.request(get)));
      // Not stretched: every call needs a new token, and the single flight shares one among
      // concurrent calls; each request after the first waits out the 1 s gap on the client's clock.
      expect(counts).toEqual({ tokens: 6, calls: 25 });
      expect(clock.waits).toEqual([1000, 1000, 1000, 1000, 1000]);
      expect(events[0]).toEqual({ expires_in: 0, scope: undefined });
    },
  );

  it('a lifetime past a day is used for a day', async () => {
    const counts = tokenAnswers({ expires_in: 1e12 });
    const { clock, client, events } = watched();
    await client.request(get);
    clock.advance(86_400_000);
    await client.request(get);
    expect(counts).toEqual({ tokens: 2, calls: 2 });
    expect(events[0]).toEqual({ expires_in: 86_400, scope: undefined });
  });
});
