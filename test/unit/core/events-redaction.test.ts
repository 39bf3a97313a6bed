import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import type { RequestEvent, ResponseEvent, RetryEvent, TokenEvent } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, BASE_V1, rejection, SECRETS, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

function expectNoSecret(text: string) {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('events', () => {
  it('emits request, response, retry and token with the documented payloads', async () => {
    let hits = 0;
    server.use(
      tokenHandler({ expiresIn: 3600, scope: 'calls:read' }),
      http.get(`${BASE}/v2/x`, () =>
        ++hits === 1
          ? HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '1' } })
          : HttpResponse.json({}),
      ),
    );
    const client = testClient();
    const seen: Record<string, unknown[]> = { request: [], response: [], retry: [], token: [] };
    client.on('request', (e: RequestEvent) => seen.request!.push(e));
    client.on('response', (e: ResponseEvent) => seen.response!.push(e));
    client.on('retry', (e: RetryEvent) => seen.retry!.push(e));
    client.on('token', (e: TokenEvent) => seen.token!.push(e));
    await client.request({ method: 'GET', path: '/v2/x' });
    const url = `${BASE}/v2/x`;
    const tokenUrl = `${BASE}/v2/oauth/token`;
    expect(seen.token).toEqual([{ expires_in: 3600, scope: 'calls:read' }]);
    const id = expect.stringMatching(/^req_\w+$/);
    expect(seen.request).toEqual([
      { method: 'POST', url: tokenUrl, attempt: 0, requestId: id },
      { method: 'GET', url, attempt: 0, requestId: id },
      { method: 'GET', url, attempt: 1, requestId: id },
    ]);
    expect(seen.retry).toEqual([
      { method: 'GET', url, attempt: 0, delayMs: 1000, reason: 'status 429', requestId: id },
    ]);
    // One id per call, the same on each of its attempts and events; the token request is a call of its own.
    const ids = (events: unknown[]) => events.map((e) => (e as RequestEvent).requestId);
    const [tokenId, callId] = ids(seen.request!);
    expect(tokenId).not.toBe(callId);
    expect(ids(seen.request!)).toEqual([tokenId, callId, callId]);
    expect(ids(seen.response!)).toEqual([tokenId, callId, callId]);
    expect(ids(seen.retry!)).toEqual([callId]);
    expect(seen.response).toMatchObject([
      { method: 'POST', url: tokenUrl, attempt: 0, status: 200 },
      { method: 'GET', url, attempt: 0, status: 429 },
      { method: 'GET', url, attempt: 1, status: 200 },
    ]);
    expect(typeof (seen.response![0] as ResponseEvent).durationMs).toBe('number');
    expectNoSecret(JSON.stringify(seen));
  });
});

describe('retry reasons', () => {
  it("a failed connection is retried with reason 'connection', a 503 with 'status 503'", async () => {
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () =>
        ++hits === 1 ? HttpResponse.error() : HttpResponse.json({}, { status: hits === 2 ? 503 : 200 }),
      ),
    );
    const client = testClient();
    const reasons: string[] = [];
    client.on('retry', (e: RetryEvent) => reasons.push(e.reason));
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(reasons).toEqual(['connection', 'status 503']);
  });
});

describe('redaction', () => {
  it('no secret in the client, its inspection or JSON', () => {
    const client = testClient();
    expectNoSecret(inspect(client, { depth: 10, showHidden: true }));
    expectNoSecret(JSON.stringify(client));
    expectNoSecret(
      inspect(testClient({ clientId: undefined, clientSecret: undefined, accessToken: SECRETS[2] }), {
        depth: 10,
      }),
    );
  });

  it('an answer echoing the credential sent: replaced in message, body and headers of the error', async () => {
    const echo = (request: Request) => request.headers.get('authorization') ?? '';
    server.use(
      tokenHandler(),
      http.get(
        `${BASE}/v2/echo`,
        ({ request }) =>
          new HttpResponse(
            `<html><body>Bad request. You sent: Authorization: ${echo(request)}</body></html>`,
            {
              status: 400,
              headers: { 'content-type': 'text/html', 'x-debug-authorization': echo(request) },
            },
          ),
      ),
      http.get(`${BASE_V1}/v1/echo`, ({ request }) =>
        HttpResponse.json(
          {
            status: 'error',
            error: {
              code: 'authentication_failed',
              message: `Invalid API key ${echo(request)}`,
              status_code: 401,
            },
            request: { headers: { authorization: echo(request) }, [echo(request)]: true },
          },
          { status: 401, headers: { 'x-debug-authorization': echo(request) } },
        ),
      ),
    );
    const client = testClient({ maxRetries: 0 });
    const v2 = await rejection(client.request({ method: 'GET', path: '/v2/echo' }));
    const v1 = await rejection(client.request({ method: 'GET', path: '/v1/echo' }));
    expect(v2.message).toBe(
      'GET /v2/echo → 400 http_400: HTTP 400, non-JSON body: Bad request. You sent: Authorization: Bearer [redacted]',
    );
    expect(v2.headers['x-debug-authorization']).toBe('Bearer [redacted]');
    expect(v1.message).toBe('GET /v1/echo → 401 authentication_failed: Invalid API key Bearer [redacted]');
    expect(v1.body).toMatchObject({ request: { headers: { authorization: 'Bearer [redacted]' } } });
    for (const error of [v2, v1]) {
      expectNoSecret(inspect(error, { depth: 10, showHidden: true }));
      expectNoSecret(JSON.stringify(error));
      expectNoSecret(JSON.stringify(error.body));
      expectNoSecret(JSON.stringify(error.headers));
    }
  });

  it('a token endpoint echoing the client secret: not in the AuthenticationError', async () => {
    server.use(
      http.post(`${BASE}/v2/oauth/token`, async ({ request }) =>
        HttpResponse.json(
          { error: 'invalid_client', error_description: `bad request body: ${await request.text()}` },
          { status: 401 },
        ),
      ),
    );
    const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
    expect(error.message).toContain('client_secret=[redacted]');
    expectNoSecret(inspect(error, { depth: 10, showHidden: true }));
  });

  it('a client secret echoed form- or percent-encoded is redacted too', async () => {
    const clientSecret = 'sk+CANARY/with space=&';
    server.use(
      http.post(`${BASE}/v2/oauth/token`, async ({ request }) => {
        const form = await request.text();
        return HttpResponse.json(
          {
            error: 'invalid_client',
            error_description: `form ${form} / uri ${encodeURIComponent(clientSecret)}`,
          },
          { status: 401, headers: { 'x-echo': encodeURIComponent(clientSecret) } },
        );
      }),
    );
    const error = await rejection(testClient({ clientSecret }).request({ method: 'GET', path: '/v2/x' }));
    expect(error.message).toContain('client_secret=[redacted]');
    expect(error.message).toContain('/ uri [redacted]');
    const seen = inspect(error, { depth: 10, showHidden: true });
    for (const form of [clientSecret, encodeURIComponent(clientSecret), 'sk%2BCANARY%2Fwith+space%3D%26'])
      expect(seen).not.toContain(form);
  });

  it('a placeholder secret that is also a word inside the code leaves code and message intact', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/calls/c1`, () =>
        HttpResponse.json(
          { status: 'error', code: 'invalid_parameter', message: 'Bad value; see the parameter list' },
          { status: 400 },
        ),
      ),
    );
    const error = await rejection(testClient({ clientSecret: 'parameter' }).calls.get('c1'));
    expect(error).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(error.message).toBe(
      'GET /v2/calls/c1 → 400 invalid_parameter: Bad value; see the [redacted] list',
    );
  });

  it('no secret in any error: API errors, token failures, connection errors', async () => {
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () =>
        HttpResponse.json({ error: 'invalid_client', error_description: 'bad' }, { status: 401 }),
      ),
      http.get(`${BASE_V1}/v1/users`, () =>
        HttpResponse.json({ status: 'error', error: { code: 'x', message: 'y' } }, { status: 400 }),
      ),
      http.get(`${BASE_V1}/v1/down`, () => HttpResponse.error()),
    );
    const client = testClient({ maxRetries: 0 });
    const errors = await Promise.all([
      rejection(client.request({ method: 'GET', path: '/v2/x' })),
      rejection(client.request({ method: 'GET', path: '/v1/users' })),
      rejection(client.request({ method: 'GET', path: '/v1/down' })),
    ]);
    expect(errors).toHaveLength(3);
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      expectNoSecret(inspect(error, { depth: 10, showHidden: true }));
      expectNoSecret(JSON.stringify(error));
      expectNoSecret(String(error.stack));
    }
  });
});
