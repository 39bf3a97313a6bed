import { HttpResponse, http } from 'msw';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  TelephonyError,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, BASE_V1, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

describe('error shapes', () => {
  it('v2 and v1 bodies give the same fields', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/calls/recent`, () =>
        HttpResponse.json(
          { status: 'error', code: 'invalid_parameter', message: 'limit must be numeric' },
          { status: 400, headers: { 'x-request-id': 'r1' } },
        ),
      ),
      http.get(`${BASE_V1}/v1/users/u1`, () =>
        HttpResponse.json(
          { status: 'error', error: { code: 'not_found', message: 'User not found', status_code: 404 } },
          { status: 404 },
        ),
      ),
    );
    const client = testClient();
    const v2 = await rejection(
      client.request({ method: 'GET', path: '/v2/calls/recent', query: { limit: 'x' } }),
    );
    expect(v2).toBeInstanceOf(BadRequestError);
    expect(v2).toMatchObject({ status: 400, code: 'invalid_parameter', apiVersion: 'v2' });
    expect(v2.message).toBe('GET /v2/calls/recent → 400 invalid_parameter: limit must be numeric');
    expect(v2.headers['x-request-id']).toBe('r1');

    const v1 = await rejection(client.request({ method: 'GET', path: '/v1/users/u1' }));
    expect(v1).toBeInstanceOf(NotFoundError);
    expect(v1).toMatchObject({ status: 404, code: 'not_found', apiVersion: 'v1' });
    expect(v1.message).toBe('GET /v1/users/u1 → 404 not_found: User not found');
  });

  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, APIError],
    [422, APIError],
    [429, RateLimitError],
    [500, InternalServerError],
    [504, InternalServerError],
  ] as const)('%i is exactly %O, an APIError and a TelephonyError', async (status, ErrorClass) => {
    server.use(
      tokenHandler(),
      http.get(`${BASE_V1}/v1/x`, () =>
        HttpResponse.json(
          { status: 'error', error: { code: `c${status}`, message: 'm', status_code: status } },
          { status },
        ),
      ),
    );
    const error = await rejection(testClient({ maxRetries: 0 }).request({ method: 'GET', path: '/v1/x' }));
    expect(error.constructor).toBe(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).toMatchObject({ status, code: `c${status}`, apiVersion: 'v1', name: ErrorClass.name });
    // Every class is built from one init that carries retryAfter: only RateLimitError keeps it.
    expect(Object.hasOwn(error as object, 'retryAfter')).toBe(status === 429);
  });

  it('403 is PermissionDeniedError', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () =>
        HttpResponse.json({ code: 'forbidden', message: 'no' }, { status: 403 }),
      ),
    );
    await expect(testClient().request({ method: 'GET', path: '/v2/x' })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });

  it('an HTML 502 and an empty 503 still give InternalServerError with a useful message', async () => {
    server.use(
      tokenHandler(),
      http.get(
        `${BASE}/v2/a`,
        () =>
          new HttpResponse('<html><body><h1>502 Bad Gateway</h1></body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          }),
      ),
      http.get(`${BASE}/v2/b`, () => new HttpResponse(null, { status: 503 })),
    );
    const client = testClient({ maxRetries: 0 });
    const html = await rejection(client.request({ method: 'GET', path: '/v2/a' }));
    expect(html).toBeInstanceOf(InternalServerError);
    expect(html).toMatchObject({ status: 502, code: 'http_502' });
    expect(html.message).toContain('502 Bad Gateway');
    expect(html.message).not.toContain('<html>');
    const empty = await rejection(client.request({ method: 'GET', path: '/v2/b' }));
    expect(empty).toBeInstanceOf(InternalServerError);
    expect(empty).toMatchObject({ status: 503, code: 'http_503', body: undefined });
    expect(empty.message).toBe('GET /v2/b → 503 http_503: HTTP 503 with an empty body');
  });

  it('a malformed 2xx JSON body is a ResponseValidationError, not a SyntaxError', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => new HttpResponse('{"status":"succ', { status: 200 })),
    );
    const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error.message).toContain('GET /v2/x');
  });

  it('an empty 2xx body resolves to undefined', async () => {
    server.use(
      tokenHandler(),
      http.delete(`${BASE}/v2/x`, () => new HttpResponse(null, { status: 204 })),
    );
    await expect(testClient().request({ method: 'DELETE', path: '/v2/x' })).resolves.toBeUndefined();
  });

  it('connection errors are TelephonyErrors but not APIErrors, and keep the cause', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => HttpResponse.error()),
    );
    const error = await rejection(testClient({ maxRetries: 0 }).request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).not.toBeInstanceOf(APIError);
    expect(error.cause).toBeDefined();
  });
});

describe('requests on the wire', () => {
  it('serializes the query (null/undefined dropped, Date as ISO) and sends JSON bodies', async () => {
    let url = '';
    let contentType: string | null = null;
    let body: unknown;
    server.use(
      tokenHandler(),
      http.post(`${BASE}/v2/calls`, async ({ request }) => {
        url = request.url;
        contentType = request.headers.get('content-type');
        body = await request.json();
        return HttpResponse.json({ ok: 1 });
      }),
    );
    await testClient().request({
      method: 'POST',
      path: '/v2/calls',
      query: { a: 1, b: true, c: null, d: undefined, from: new Date('2025-01-01T00:00:00Z'), s: 'x y' },
      body: { to: '+15550001111', at: new Date('2025-01-02T00:00:00Z') },
    });
    expect(url).toBe(`${BASE}/v2/calls?a=1&b=true&from=2025-01-01T00%3A00%3A00.000Z&s=x%20y`);
    expect(contentType).toBe('application/json');
    expect(body).toEqual({ to: '+15550001111', at: '2025-01-02T00:00:00.000Z' });
  });

  it('keeps a path prefix of the base URL', async () => {
    let hit = false;
    server.use(
      tokenHandler(),
      http.post('https://api.test/api/v2/oauth/token', () =>
        HttpResponse.json({ access_token: 't', expires_in: 60 }),
      ),
      http.get('https://api.test/api/v2/x', () => {
        hit = true;
        return HttpResponse.json({});
      }),
    );
    await testClient({ baseUrl: 'https://api.test/api/' }).request({ method: 'GET', path: '/v2/x' });
    expect(hit).toBe(true);
  });
});
