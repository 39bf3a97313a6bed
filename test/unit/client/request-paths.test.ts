import { http } from 'msw';
import { ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

describe('client.request paths that would leave their version are refused before the token is sent', () => {
  it.each([
    '/v2/../v1/users',
    '/v2/%2e%2e/admin',
    '/v2/%2E%2E/v1/users',
    '/v2/calls/..%2f..%2fv1%2fusers',
    '/v2/./calls',
    '/v2/calls\\..\\..\\admin',
  ])('%s', async (path) => {
    let tokens = 0;
    const sent: string[] = [];
    server.use(
      tokenHandler({ onRequest: () => tokens++ }),
      http.all('*', ({ request }) => {
        sent.push(request.url);
        return new Response(null, { status: 599 });
      }),
    );
    const error = await rejection(testClient().request({ method: 'GET', path }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as unknown as ValidationError).issues[0]?.path).toBe('path');
    expect({ tokens, sent }).toEqual({ tokens: 0, sent: [] });
  });

  it('a recording URL on the right origin with an encoded dot-segment is refused too', async () => {
    let tokens = 0;
    server.use(tokenHandler({ onRequest: () => tokens++ }));
    const error = await rejection(
      testClient().transport.download({ method: 'GET', path: `${BASE}/v2/calls/%2e%2e/%2e%2e/v1/users` }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(tokens).toBe(0);
  });
});

describe('client.request headers', () => {
  it.each([{ 'x-trace': 'a\r\nx-injected: 1' }, { 'bad name': 'v' }])(
    'a header that cannot be sent (%j) is a ValidationError, nothing sent',
    async (headers) => {
      let tokens = 0;
      server.use(tokenHandler({ onRequest: () => tokens++ }));
      const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x', headers }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).not.toContain('injected');
      expect(tokens).toBe(0);
    },
  );
});
