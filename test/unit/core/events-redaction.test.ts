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
    expect(seen.request).toEqual([
      { method: 'POST', url: tokenUrl, attempt: 0 },
      { method: 'GET', url, attempt: 0 },
      { method: 'GET', url, attempt: 1 },
    ]);
    expect(seen.retry).toEqual([{ method: 'GET', url, attempt: 0, delayMs: 1000, reason: 'status 429' }]);
    expect(seen.response).toMatchObject([
      { method: 'POST', url: tokenUrl, attempt: 0, status: 200 },
      { method: 'GET', url, attempt: 0, status: 429 },
      { method: 'GET', url, attempt: 1, status: 200 },
    ]);
    expect(typeof (seen.response![0] as ResponseEvent).durationMs).toBe('number');
    expectNoSecret(JSON.stringify(seen));
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

  it('no secret in any error: API errors (even echoing request headers), token failures, connection errors', async () => {
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
