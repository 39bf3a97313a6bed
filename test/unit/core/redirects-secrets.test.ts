import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { APIError, AuthenticationError, ResponseValidationError, TelephonyClient } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, BASE_V1, CANARY, rejection, SECRETS, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';

const ELSEWHERE = 'https://elsewhere.test';

/** Counts every request that reaches another origin. */
function elsewhere() {
  const seen: string[] = [];
  server.use(
    http.all(`${ELSEWHERE}/*`, async ({ request }) => {
      seen.push(`${request.method} ${request.headers.get('authorization') ?? ''} ${await request.text()}`);
      return HttpResponse.json({ access_token: 'stolen', expires_in: 3600, data: {} });
    }),
  );
  return seen;
}

function expectNoSecret(value: unknown, secrets: readonly string[] = SECRETS) {
  const text = `${inspect(value, { depth: 10, showHidden: true })} ${JSON.stringify(value)}`;
  for (const secret of secrets) expect(text).not.toContain(secret);
}

describe('redirects are never followed', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i from the token endpoint does not re-post the client secret elsewhere',
    async (status) => {
      const seen = elsewhere();
      server.use(
        http.post(`${BASE}/v2/oauth/token`, () =>
          HttpResponse.text('', { status, headers: { location: `${ELSEWHERE}/token` } }),
        ),
      );
      const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.status).toBe(status);
      expect(seen).toEqual([]);
      expectNoSecret(error);
    },
  );

  it('a redirect of a data request is an APIError naming it, and the bearer goes nowhere else', async () => {
    const seen = elsewhere();
    let hits = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        return HttpResponse.text('', { status: 307, headers: { location: `${ELSEWHERE}/x` } });
      }),
    );
    const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 307, code: 'redirect_not_followed', apiVersion: 'v2' });
    expect(error.message).toContain(`to ${ELSEWHERE}/x`);
    expect(hits).toBe(1);
    expect(seen).toEqual([]);
  });
});

describe('secrets in errors', () => {
  const echo = (status: number, text: string) =>
    HttpResponse.json({ status: 'error', code: 'bad', message: `echo: ${text}` }, { status });

  it('webhooks.create: the signing secret echoed by a 4xx is redacted from message, body and headers', async () => {
    const secret = 'whsec_CANARY_SIGNING_51c0de';
    server.use(
      tokenHandler(),
      http.post(`${BASE}/v2/webhooks`, async ({ request }) => {
        const body = await request.text();
        return HttpResponse.json(
          { status: 'error', code: 'invalid_parameter', message: `bad request ${body}` },
          { status: 400, headers: { 'x-echo': secret } },
        );
      }),
    );
    const error = await rejection(
      testClient().webhooks.create({ url: 'https://example.com/hooks', events: ['call.incoming'], secret }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('[redacted]');
    expectNoSecret(error, [secret]);
  });

  it('the API key is redacted from a v2 error too, and the client secret from a v1 error', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => echo(400, CANARY.apiKey)),
      http.get(`${BASE_V1}/v1/y`, () =>
        HttpResponse.json(
          {
            status: 'error',
            error: { code: 'bad', message: `echo ${CANARY.clientSecret}`, status_code: 400 },
          },
          { status: 400 },
        ),
      ),
    );
    const client = testClient();
    const v2 = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    const v1 = await rejection(client.request({ method: 'GET', path: '/v1/y' }));
    expect([v2.status, v1.status]).toEqual([400, 400]);
    expectNoSecret(v2);
    expectNoSecret(v1);
  });

  it('a static access token echoed by a v1 error is redacted', async () => {
    server.use(http.get(`${BASE_V1}/v1/y`, () => echo(400, CANARY.accessToken)));
    const client = new TelephonyClient({
      baseUrl: BASE,
      baseUrlV1: BASE_V1,
      accessToken: CANARY.accessToken,
      apiKey: CANARY.apiKey,
      clock: fakeClock(),
    });
    expectNoSecret(await rejection(client.request({ method: 'GET', path: '/v1/y' })));
  });

  it('a 2xx body that is not JSON (a bare token) is not kept in the error or its cause', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => HttpResponse.text(CANARY.accessToken)),
    );
    const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.cause).toBeUndefined();
    expectNoSecret(error);
  });
});
