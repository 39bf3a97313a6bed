import { HttpResponse, http } from 'msw';
import {
  APIConnectionError,
  AuthenticationError,
  ResponseValidationError,
  type TelephonyClient,
  TelephonyError,
  ValidationError,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, BASE_V1, CANARY, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

const ok = () => HttpResponse.json({ status: 'success', data: {} });

/** Lets a background token request finish: one turn of the event loop, no time passes. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Resolves at the client's next 'token' event, once the new token is in the cache. */
async function nextToken(client: TelephonyClient): Promise<void> {
  await new Promise((resolve) => client.on('token', resolve));
  await nextTurn();
}

function recordAuth(url: string, seen: Array<string | null>) {
  return http.all(url, ({ request }) => {
    seen.push(request.headers.get('authorization'));
    return ok();
  });
}

describe('OAuth client credentials', () => {
  it('sends the exact form body, with scope space-separated', async () => {
    const forms: string[] = [];
    let contentType: string | null = null;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, async ({ request }) => {
        contentType = request.headers.get('content-type');
        forms.push(await request.text());
        return HttpResponse.json({
          access_token: CANARY.accessToken,
          token_type: 'Bearer',
          expires_in: 3600,
        });
      }),
      http.get(`${BASE}/v2/calls/recent`, ok),
    );
    await testClient({ scope: ['calls:read', 'calls:write'] }).request({
      method: 'GET',
      path: '/v2/calls/recent',
    });
    expect(contentType).toBe('application/x-www-form-urlencoded');
    expect(forms).toEqual([
      `grant_type=client_credentials&client_id=${CANARY.clientId}&client_secret=${CANARY.clientSecret}&scope=calls%3Aread+calls%3Awrite`,
    ]);
  });

  it('omits scope when none was given', async () => {
    const forms: URLSearchParams[] = [];
    server.use(tokenHandler({ onRequest: (f) => forms.push(f) }), http.get(`${BASE}/v2/x`, ok));
    await testClient().request({ method: 'GET', path: '/v2/x' });
    expect([...forms[0]!.keys()]).toEqual(['grant_type', 'client_id', 'client_secret']);
  });

  it('reuses the token; from 60 s before expiry renews it in the background, the call using the old one', async () => {
    let tokens = 0;
    const seen: Array<string | null> = [];
    const clock = fakeClock();
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () =>
        HttpResponse.json({ access_token: `at_${++tokens}`, token_type: 'Bearer', expires_in: 3600 }),
      ),
      recordAuth(`${BASE}/v2/x`, seen),
    );
    const client = testClient({ clock });
    await client.request({ method: 'GET', path: '/v2/x' });
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(tokens).toBe(1);
    clock.advance(3_540_000 - 1);
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(tokens).toBe(1);
    clock.advance(1);
    const renewed = nextToken(client);
    await client.request({ method: 'GET', path: '/v2/x' });
    await renewed;
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(tokens).toBe(2);
    expect(seen).toEqual(['Bearer at_1', 'Bearer at_1', 'Bearer at_1', 'Bearer at_1', 'Bearer at_2']);
  });

  it('in the advisory window a token endpoint answering 503 fails no call; the refresh backs off', async () => {
    let tokens = 0;
    let down = false;
    let reached: { count: number; resolve: () => void } | undefined;
    const tokenRequests = (count: number) =>
      new Promise<void>((resolve) => {
        reached = { count, resolve };
      });
    const seen: Array<string | null> = [];
    const clock = fakeClock();
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () => {
        tokens++;
        if (reached !== undefined && tokens >= reached.count) reached.resolve();
        return down
          ? HttpResponse.json({ status: 'error', code: 'unavailable', message: 'down' }, { status: 503 })
          : HttpResponse.json({ access_token: `at_${tokens}`, token_type: 'Bearer', expires_in: 3600 });
      }),
      recordAuth(`${BASE}/v2/x`, seen),
    );
    const client = testClient({ clock });
    await client.request({ method: 'GET', path: '/v2/x' });
    // A failed call loads the error mapping (by import(), on a client's first failure): the background
    // refresh's failures below then settle within the turn this test gives them.
    server.use(http.get(`${BASE}/v2/missing`, () => HttpResponse.json({}, { status: 404 }), { once: true }));
    await expect(client.request({ method: 'GET', path: '/v2/missing' })).rejects.toThrow();
    down = true;
    clock.advance(3_540_000);

    // One background refresh: the token request and its 2 retries, all 503; the call is not held up.
    let failed = tokenRequests(4);
    await client.request({ method: 'GET', path: '/v2/x' });
    await failed;
    await nextTurn();
    expect(tokens).toBe(4);
    // Within the 1 s backoff: the old token, no token request.
    await Promise.all(Array.from({ length: 5 }, () => client.request({ method: 'GET', path: '/v2/x' })));
    await nextTurn();
    expect(tokens).toBe(4);

    clock.advance(1000);
    failed = tokenRequests(7);
    await client.request({ method: 'GET', path: '/v2/x' });
    await failed;
    await nextTurn();
    expect(tokens).toBe(7);

    down = false;
    clock.advance(2000);
    const renewed = nextToken(client);
    await client.request({ method: 'GET', path: '/v2/x' });
    await renewed;
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(tokens).toBe(8);
    expect(seen).toEqual([...Array.from({ length: 9 }, () => 'Bearer at_1'), 'Bearer at_8']);
  });

  it('in the last 10 s a call waits for the refresh; if the endpoint fails, it uses the still-valid token', async () => {
    let tokens = 0;
    let down = false;
    const seen: Array<string | null> = [];
    const clock = fakeClock();
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () => {
        tokens++;
        return down
          ? new HttpResponse('<html>unavailable</html>', { status: 503 })
          : HttpResponse.json({ access_token: `at_${tokens}`, token_type: 'Bearer', expires_in: 3600 });
      }),
      recordAuth(`${BASE}/v2/x`, seen),
    );
    const client = testClient({ clock });
    await client.request({ method: 'GET', path: '/v2/x' });
    clock.advance(3_590_000);
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(tokens).toBe(2);
    expect(seen).toEqual(['Bearer at_1', 'Bearer at_2']);

    down = true;
    clock.advance(3_590_000);
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(tokens).toBe(5);
    expect(seen).toEqual(['Bearer at_1', 'Bearer at_2', 'Bearer at_2']);
  });

  it('makes exactly one token request for 50 concurrent calls on a cold cache', async () => {
    let tokens = 0;
    let calls = 0;
    server.use(
      tokenHandler({ onRequest: () => tokens++ }),
      http.get(`${BASE}/v2/x`, () => {
        calls++;
        return ok();
      }),
    );
    const client = testClient();
    await Promise.all(Array.from({ length: 50 }, () => client.request({ method: 'GET', path: '/v2/x' })));
    expect(tokens).toBe(1);
    expect(calls).toBe(50);
  });

  it('concurrent calls on an expired cache share one renewal', async () => {
    let tokens = 0;
    const seen: Array<string | null> = [];
    const clock = fakeClock();
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () =>
        HttpResponse.json({ access_token: `at_${++tokens}`, token_type: 'Bearer', expires_in: 3600 }),
      ),
      recordAuth(`${BASE}/v2/x`, seen),
    );
    const client = testClient({ clock });
    await client.request({ method: 'GET', path: '/v2/x' });
    clock.advance(3_600_000);
    await Promise.all(Array.from({ length: 20 }, () => client.request({ method: 'GET', path: '/v2/x' })));
    expect(tokens).toBe(2);
    expect(seen).toEqual(['Bearer at_1', ...Array.from({ length: 20 }, () => 'Bearer at_2')]);
  });

  it('on a 401 drops the token, gets a new one and repeats the call once', async () => {
    const seen: Array<string | null> = [];
    let n = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () =>
        HttpResponse.json({ access_token: `at_${++n}`, token_type: 'Bearer', expires_in: 3600 }),
      ),
      http.get(`${BASE}/v2/x`, ({ request }) => {
        seen.push(request.headers.get('authorization'));
        return seen.length === 1
          ? HttpResponse.json({ status: 'error', code: 'unauthorized', message: 'expired' }, { status: 401 })
          : ok();
      }),
    );
    const clock = fakeClock();
    await testClient({ clock, maxRetries: 0 }).request({ method: 'GET', path: '/v2/x' });
    expect(seen).toEqual(['Bearer at_1', 'Bearer at_2']);
    // No back-off before the repeat; only the second token request waits out the 1 s gap after the first.
    expect(clock.waits).toEqual([1000]);
  });

  it('a second 401 is an AuthenticationError, no loop', async () => {
    let tokens = 0;
    let calls = 0;
    server.use(
      tokenHandler({ onRequest: () => tokens++ }),
      http.get(`${BASE}/v2/x`, () => {
        calls++;
        return HttpResponse.json({ status: 'error', code: 'unauthorized', message: 'no' }, { status: 401 });
      }),
    );
    await expect(testClient().request({ method: 'GET', path: '/v2/x' })).rejects.toMatchObject({
      constructor: AuthenticationError,
      status: 401,
      code: 'unauthorized',
      apiVersion: 'v2',
    });
    expect(calls).toBe(2);
    expect(tokens).toBe(2);
  });

  it.each([
    [
      'spec shape',
      { status: 'error', code: 'unauthorized', message: 'Invalid client credentials' },
      401,
      'unauthorized',
    ],
    [
      'RFC 6749 shape',
      { error: 'invalid_client', error_description: 'Client authentication failed' },
      400,
      'invalid_client',
    ],
  ])('a failed token request (%s) is an AuthenticationError', async (_name, body, status, code) => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () => HttpResponse.json(body, { status })),
      http.get(`${BASE}/v2/x`, () => {
        calls++;
        return ok();
      }),
    );
    const error = await testClient()
      .request({ method: 'GET', path: '/v2/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status, code, apiVersion: 'v2' });
    expect((error as Error).message).toContain('POST /v2/oauth/token');
    expect(calls).toBe(0);
  });

  it('a 5xx token request is retried, then an AuthenticationError', async () => {
    let tokens = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () => {
        tokens++;
        return new HttpResponse('<html>bad gateway</html>', { status: 502 });
      }),
    );
    await expect(testClient().request({ method: 'GET', path: '/v2/x' })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(tokens).toBe(3);
  });
});

describe('accessToken and apiKey', () => {
  it('accessToken string is sent as is; the async function is asked again after a 401', async () => {
    const seen: Array<string | null> = [];
    server.use(recordAuth(`${BASE}/v2/x`, seen));
    await testClient({ clientId: undefined, clientSecret: undefined, accessToken: 'tok_a' }).request({
      method: 'GET',
      path: '/v2/x',
    });
    expect(seen).toEqual(['Bearer tok_a']);

    let asked = 0;
    const calls: Array<string | null> = [];
    server.use(
      http.get(`${BASE}/v2/y`, ({ request }) => {
        calls.push(request.headers.get('authorization'));
        return calls.length === 1 ? HttpResponse.json({}, { status: 401 }) : ok();
      }),
    );
    await testClient({
      clientId: undefined,
      clientSecret: undefined,
      accessToken: async () => `tok_${++asked}`,
    }).request({ method: 'GET', path: '/v2/y' });
    expect(calls).toEqual(['Bearer tok_1', 'Bearer tok_2']);
  });

  it('v1 gets the API key and never the token; v2 never gets the API key', async () => {
    const v1: Array<string | null> = [];
    const v2: Array<string | null> = [];
    server.use(tokenHandler(), recordAuth(`${BASE_V1}/v1/users`, v1), recordAuth(`${BASE}/v2/x`, v2));
    const client = testClient();
    await client.request({ method: 'GET', path: '/v2/x' });
    await client.request({ method: 'GET', path: '/v1/users' });
    expect(v1).toEqual([`Bearer ${CANARY.apiKey}`]);
    expect(v2).toEqual([`Bearer ${CANARY.accessToken}`]);
  });

  it('a 401 on v1 is an AuthenticationError with the v1 fields, not repeated', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE_V1}/v1/users`, () => {
        calls++;
        return HttpResponse.json(
          {
            status: 'error',
            error: { code: 'authentication_failed', message: 'Invalid API key', status_code: 401 },
          },
          { status: 401 },
        );
      }),
    );
    await expect(testClient().request({ method: 'GET', path: '/v1/users' })).rejects.toMatchObject({
      constructor: AuthenticationError,
      code: 'authentication_failed',
      apiVersion: 'v1',
    });
    expect(calls).toBe(1);
  });

  it('an accessToken function that rejects or gives no token fails with a TelephonyError, sending nothing', async () => {
    let sent = 0;
    server.use(
      http.all(`${BASE}/v2/x`, () => {
        sent++;
        return ok();
      }),
    );
    const reason = new Error('backend down');
    const failing = testClient({
      clientId: undefined,
      clientSecret: undefined,
      accessToken: () => Promise.reject(reason),
    });
    const error = await failing.request({ method: 'GET', path: '/v2/x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelephonyError);
    expect((error as Error).message).toBe('The accessToken function failed');
    expect((error as Error).cause).toBe(reason);

    const empty = testClient({
      clientId: undefined,
      clientSecret: undefined,
      accessToken: async () => undefined as unknown as string,
    });
    await expect(empty.request({ method: 'GET', path: '/v2/x' })).rejects.toThrow(
      'The accessToken function: must resolve to a non-empty string',
    );
    expect(sent).toBe(0);
  });

  it('a token that cannot go in a header (accessToken function or token answer) fails without its value, sending nothing', async () => {
    let sent = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () =>
        HttpResponse.json({ access_token: `${CANARY.accessToken}\r\nX-Injected: 1`, expires_in: 3600 }),
      ),
      http.all(`${BASE}/v2/x`, () => {
        sent++;
        return ok();
      }),
    );
    const clock = fakeClock();
    const error = await testClient({
      clientId: undefined,
      clientSecret: undefined,
      accessToken: async () => `${CANARY.accessToken}\n`,
      clock,
    })
      .request({ method: 'GET', path: '/v2/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).not.toContain(CANARY.accessToken);
    expect((error as Error).cause).toBeUndefined();

    const answer = await testClient({ clock })
      .request({ method: 'GET', path: '/v2/x' })
      .catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(ResponseValidationError);
    expect(JSON.stringify(answer)).not.toContain(CANARY.accessToken);
    expect((answer as Error).message).not.toContain(CANARY.accessToken);
    expect(sent).toBe(0);
    expect(clock.waits).toEqual([]);
  });

  it.each([
    ['/v2/x', { baseUrl: undefined }, 'baseUrl'],
    ['/v1/users', { baseUrlV1: undefined }, 'baseUrlV1'],
  ])(
    'a missing address for %s fails naming %s, sending nothing (no token request either)',
    async (path, overrides, option) => {
      let tokens = 0;
      server.use(tokenHandler({ onRequest: () => tokens++ }));
      const error = await testClient(overrides)
        .request({ method: 'GET', path })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        { path: option, message: expect.stringContaining(option) },
      ]);
      expect(tokens).toBe(0);
    },
  );

  it.each([
    ['/v1/users', { apiKey: undefined }, 'apiKey'],
    ['/v2/x', { clientId: undefined, clientSecret: undefined }, 'accessToken'],
  ])(
    'a missing credential for %s fails naming the option, sending nothing',
    async (path, overrides, option) => {
      const error = await testClient(overrides)
        .request({ method: 'GET', path })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain(option);
      expect((error as ValidationError).issues[0]?.path).toBe(option);
    },
  );
});
