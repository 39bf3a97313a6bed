import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import {
  InternalServerError,
  PermissionDeniedError,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
  TelephonyClient,
  ValidationError,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, BASE_V1, rejection, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

describe('a token the client held before a refresh', () => {
  it('is redacted from an answer that echoes it after the refresh, in any form', async () => {
    const tokens = ['at_OLD_TOKEN_0a1b2c3d4e5f', 'at_NEW_TOKEN_6a7b8c9d0e1f'];
    const [old, fresh] = tokens as [string, string];
    let issued = 0;
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () =>
        HttpResponse.json({ access_token: tokens[issued++], expires_in: 3600 }),
      ),
      http.get(`${BASE}/v2/x`, ({ request }) => {
        if (request.headers.get('authorization') === `Bearer ${old}`)
          return HttpResponse.json({ code: 'unauthorized', message: 'expired' }, { status: 401 });
        const echo = `the token ${old} was revoked (${encodeURIComponent(old)}, ${btoa(old)})`;
        return HttpResponse.json(
          { status: 'error', code: 'boom', message: echo, previous: old },
          { status: 500, headers: { 'x-previous-token': old } },
        );
      }),
    );
    const error = await rejection(testClient({ maxRetries: 0 }).request({ method: 'GET', path: '/v2/x' }));
    expect(issued).toBe(2);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toBe(
      'GET /v2/x → 500 boom: the token [redacted] was revoked ([redacted], [redacted]==)',
    );
    expect(error.body).toMatchObject({ previous: '[redacted]' });
    expect(error.headers['x-previous-token']).toBe('[redacted]');
    const seen = inspect(error, { depth: 10, showHidden: true });
    for (const token of [old, fresh]) expect(seen).not.toContain(token);
  });
});

describe('a pre-signed recording URL', () => {
  const signed = `${BASE}/v2/calls/c1/recording?X-Amz-Signature=SIG_0123456789&X-Amz-Credential=CRED_42`;

  it("keeps its query string out of messages and 'request', 'response' and 'retry' events", async () => {
    const sent: string[] = [];
    server.use(
      http.get(`${BASE}/v2/calls/c1/recording`, ({ request }) => {
        sent.push(request.url);
        return sent.length === 1
          ? new HttpResponse(null, { status: 503 })
          : HttpResponse.json({ code: 'forbidden', message: 'no' }, { status: 403 });
      }),
    );
    const client = testClient({ accessToken: 'tok' });
    const events: Array<RequestEvent | ResponseEvent | RetryEvent> = [];
    for (const name of ['request', 'response', 'retry'] as const)
      client.on(name, (event) => events.push(event));
    const error = await rejection(client.calls.downloadRecording(signed));
    // The request itself carries the signature.
    expect(sent).toEqual([signed, signed]);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.message).toBe(`GET ${BASE}/v2/calls/c1/recording → 403 forbidden: no`);
    expect(events).toHaveLength(5);
    for (const event of events) expect(event.url).toBe(`${BASE}/v2/calls/c1/recording`);
    const everything = JSON.stringify(events) + inspect(error, { depth: 10, showHidden: true });
    for (const part of ['SIG_0123456789', 'CRED_42']) expect(everything).not.toContain(part);
  });

  it('a client without a v2 credential refuses it without echoing its query string', async () => {
    const client = new TelephonyClient({ baseUrl: BASE, baseUrlV1: BASE_V1, apiKey: 'key' });
    const error = await rejection(client.calls.downloadRecording(signed));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(`GET ${BASE}/v2/calls/c1/recording`);
    const everything = inspect(error, { depth: 10, showHidden: true });
    for (const part of ['SIG_0123456789', 'CRED_42']) expect(everything).not.toContain(part);
  });

  it('a malformed one is a ValidationError naming the field, and nothing is sent', async () => {
    const fetched: string[] = [];
    const client = testClient({
      accessToken: 'tok',
      fetch: (async (request: Request) => {
        fetched.push(request.url);
        return new Response(null);
      }) as typeof fetch,
    });
    for (const url of [
      'https://api.test:99999/v2/calls/c1/recording?sig=SIG_1',
      'http://[::1/v2/calls/c1/recording',
      'https://exa mple.test/v2/calls/c1/recording',
    ]) {
      const error = await rejection(client.calls.downloadRecording(url));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({
        message: 'Invalid request path: must be a URL',
        issues: [{ path: 'path', message: 'must be a URL' }],
      });
    }
    expect(fetched).toEqual([]);
  });
});
