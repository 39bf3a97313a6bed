import {
  APITimeoutError,
  type Middleware,
  TelephonyClient,
  type TelephonyError,
  ValidationError,
  type WarningEvent,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { expectNoSecretIn } from '../helpers/secret-scan.js';
import { serveSandbox } from './helpers.js';

const TO = '+14155550123';

/** A logger that keeps every line. */
function lines() {
  const logged: string[] = [];
  const write = (line: string) => {
    logged.push(line);
  };
  return { logged, logger: { debug: write, info: write, warn: write, error: write } };
}

/** A fetch whose first request to `path` fails as a refused connection (nothing sent); the rest reach the server. */
function refusedOnce(sent: Request[], path: string) {
  let refused = false;
  return (async (request: Request, init?: RequestInit) => {
    if (new URL(request.url).pathname !== path) return globalThis.fetch(request, init);
    sent.push(request);
    if (!refused) {
      refused = true;
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    }
    return globalThis.fetch(request, init);
  }) as typeof fetch;
}

describe('over real HTTP against the sandbox', () => {
  it('.withResponse() gives the data and the last answer, for a method, a list and client.request', async () => {
    const { client } = await serveSandbox();
    const c = client();
    const created = await c.calls.create({ to: TO }).withResponse();
    expect(created.response.status).toBe(200);
    expect(created.response.headers.get('content-type')).toMatch(/json/);
    expect(created.data.id).toEqual(expect.any(String));
    const listed = await c.calls.listRecent({ limit: 5 }).withResponse();
    expect(listed.data.items.map((call) => call.id)).toContain(created.data.id);
    expect(listed.response.ok).toBe(true);
    const raw = await c.request({ method: 'GET', path: `/v2/calls/${created.data.id}` }).withResponse();
    expect(raw.response.status).toBe(200);
    expect(raw.data).toMatchObject({ status: 'success' });
    // The promise itself still resolves to the data.
    expect((await c.calls.get(created.data.id)).id).toBe(created.data.id);
  });

  it('.withResponse() of waitFor and findByIdempotencyKey gives the answer of the read that decided', async () => {
    const { client } = await serveSandbox();
    const c = client();
    const answers: Response[] = [];
    const last: Middleware = async (request, next) => {
      const response = await next(request);
      answers.push(response);
      return response;
    };
    const sdk = client({ middleware: [last] });
    const placed = await c.calls.create({ to: TO }, { idempotencyKey: 'ticket-77' });

    const done = await sdk.calls.waitFor(placed.id, 'completed', { timeout: 120_000 }).withResponse();
    expect(done.data).toMatchObject({ id: placed.id, status: 'completed' });
    expect(done.response.status).toBe(200);
    expect(new URL(done.response.url).pathname).toBe(`/v2/calls/${placed.id}`);
    // More than one read was made; the answer is the last one's.
    expect(answers.length).toBeGreaterThan(1);
    expect(done.response.url).toBe(answers.at(-1)?.url);

    const found = await sdk.calls.findByIdempotencyKey('ticket-77').withResponse();
    expect(found.data?.id).toBe(placed.id);
    expect(new URL(found.response.url).pathname).toBe(`/v2/calls/${placed.id}`);

    const none = await sdk.calls.findByIdempotencyKey('ticket-00').withResponse();
    expect(none.data).toBeUndefined();
    expect(new URL(none.response.url).pathname).toBe('/v2/calls/recent');
    expect(none.response.ok).toBe(true);
    // The promises themselves still resolve to the data.
    await expect(sdk.calls.findByIdempotencyKey('ticket-00')).resolves.toBeUndefined();
  });

  it('extraQuery reaches the service; extraBody too (the sandbox names the field it does not know)', async () => {
    const { client } = await serveSandbox();
    const urls: string[] = [];
    const record: Middleware = (request, next) => {
      urls.push(request.url);
      return next(request);
    };
    const c = client({ middleware: [record] });
    await c.calls.listRecent({ limit: 2 }, { extraQuery: { region: 'eu' } });
    expect(urls.filter((url) => url.includes('/v2/calls'))).toEqual([
      expect.stringMatching(/\/v2\/calls\/recent\?limit=2&region=eu$/),
    ]);
    await expect(c.calls.create({ to: TO }, { extraBody: { ring_timeout: 30 } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Unknown field: ring_timeout'),
    });
    // A typed parameter as an extra is refused before anything is sent.
    const refused = c.calls.listRecent({}, { extraQuery: { limit: 'all' } });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ issues: [{ path: 'extraQuery.limit' }] });
    await expect(c.calls.get('c1', { extraBody: { a: 1 } })).rejects.toMatchObject({
      issues: [{ path: 'extraBody' }],
    });
    // The token request, the list and the create: nothing for the two refusals.
    expect(urls).toHaveLength(3);
  });

  it('a middleware adds a header to every attempt, and cannot make the service see a POST twice', async () => {
    const { client } = await serveSandbox();
    const sent: Request[] = [];
    const contexts: string[] = [];
    const tag: Middleware = (request, next, { attempt, requestId, operation }) => {
      contexts.push(`${operation} ${attempt} ${requestId}`);
      request.headers.set('x-correlation-id', requestId);
      return next(request);
    };
    const c = client({ middleware: [tag], fetch: refusedOnce(sent, '/v2/calls') });
    const call = await c.calls.create({ to: TO });
    expect(sent).toHaveLength(2);
    const ids = sent.map((request) => request.headers.get('x-correlation-id'));
    expect(ids[0]).toMatch(/^req_/);
    expect(ids).toEqual([ids[0], ids[0]]);
    // The token request is an attempt too, with its own id.
    expect(contexts).toEqual([
      expect.stringMatching(/^POST \/v2\/oauth\/token 0 req_/),
      `POST /v2/calls 0 ${ids[0]}`,
      `POST /v2/calls 1 ${ids[0]}`,
    ]);

    const twice: Middleware = async (request, next) => {
      const first = await next(request);
      await next(request).catch(() => undefined);
      return first;
    };
    const plain = client({ middleware: [twice] });
    const before = (await plain.calls.listRecent({ limit: 100 })).items.length;
    const second = await plain.calls.create({ to: TO });
    const after = (await plain.calls.listRecent({ limit: 100 })).items;
    expect(after).toHaveLength(before + 1);
    expect(after.filter((item) => item.id === second.id)).toHaveLength(1);
    expect(call.id).not.toBe(second.id);
  });

  it('a middleware that throws before next fails the call as not sent', async () => {
    const { client } = await serveSandbox();
    const c = client({
      maxRetries: 0,
      middleware: [
        () => {
          throw new Error('no');
        },
      ],
    });
    const error = (await c.calls.create({ to: TO }).catch((e: unknown) => e)) as TelephonyError;
    expect(error.name).toBe('APIConnectionError');
    expect(error.outcome).toBe('not_sent');
    expect((await client().calls.listRecent()).items).toHaveLength(0);
  });

  it('totalTimeout: a Retry-After that would pass it rejects at once with APITimeoutError, without waiting', async () => {
    const { sandbox, server, waits } = await serveSandbox({
      apiKeys: [{ key: 'k_1', plan: { requestsPerMinute: 1 } }],
    });
    const c = new TelephonyClient({ baseUrlV1: server.url, apiKey: 'k_1', clock: sandbox.clientClock });
    await c.users.list();
    const error = (await c.users
      .list({}, { totalTimeout: 5_000 })
      .catch((e: unknown) => e)) as TelephonyError;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.message).toMatch(/passed its totalTimeout of 5000 ms/);
    expect(error.outcome).toBe('not_sent');
    expect(error.attempts).toMatchObject([{ status: 429 }]);
    expect(waits).toEqual([]);
    // Within a long enough deadline, the same wait is waited out.
    const page = await c.users.list({}, { totalTimeout: 120_000 });
    expect(page.items).toEqual(expect.any(Array));
  });

  it('warnings: v1_deprecated once per client, deprecated once per method and path with its dates', async () => {
    const sunset = 'Thu, 31 Dec 2026 23:59:59 GMT';
    const { client } = await serveSandbox({ deprecation: { v1: { deprecation: '@1703980800', sunset } } });
    const { logged, logger } = lines();
    const c = client({ logger });
    const warnings: WarningEvent[] = [];
    c.on('warning', (warning) => warnings.push(warning));
    await c.users.list();
    await c.users.list();
    await c.calls.listRecent();
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'v1_deprecated',
        deprecatedOn: '2023-12-31',
        requestId: expect.any(String),
      }),
      expect.objectContaining({
        code: 'deprecated',
        method: 'GET',
        path: '/v1/users',
        deprecation: '2023-12-31T00:00:00.000Z',
        sunset: '2026-12-31T23:59:59.000Z',
      }),
    ]);
    expect(logged).toEqual([
      expect.stringMatching(/^\[telephony-sdk\] warning v1_deprecated: /),
      expect.stringMatching(
        /^\[telephony-sdk\] warning deprecated: GET \/v1\/users is deprecated as of 2023-12-31/,
      ),
    ]);
  });

  it('TELEPHONY_LOG-style debug logging shows every attempt of a failing call, with no secret in any line', async () => {
    const { client, sandbox } = await serveSandbox();
    const { logged, logger } = lines();
    const sent: Request[] = [];
    const c = client({
      logger,
      logLevel: 'debug',
      fetch: refusedOnce(sent, '/v2/oauth/token'),
      maxRetries: 2,
    });
    await expect(c.calls.get('call_nope')).rejects.toMatchObject({ status: 404 });
    const attempts = logged.filter((line) => / attempt \d: /.test(line));
    expect(attempts).toEqual([
      expect.stringMatching(
        /POST \/v2\/oauth\/token attempt 0: POST http:\/\/127\.0\.0\.1:\d+\/v2\/oauth\/token → APIConnectionError in \d+ ms; retry in \d+ ms \(connection\)/,
      ),
      expect.stringMatching(/POST \/v2\/oauth\/token attempt 1: .* → 200 in \d+ ms; no retry/),
      expect.stringMatching(
        /GET \/v2\/calls\/call_nope attempt 0: GET http:\/\/127\.0\.0\.1:\d+\/v2\/calls\/call_nope → 404 in \d+ ms; no retry/,
      ),
    ]);
    expect(logged.filter((line) => /: failed with NotFoundError/.test(line))).toHaveLength(1);
    expectNoSecretIn(logged, [sandbox.credentials.clientSecret, sandbox.credentials.apiKey]);
  });
});
