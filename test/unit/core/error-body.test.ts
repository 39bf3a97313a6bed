import { HttpResponse, http } from 'msw';
import { APIError, BadRequestError, InternalServerError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, CANARY, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

/** An error answer with this raw JSON text as its body. */
function answerWith(text: string, status = 400) {
  server.use(
    tokenHandler(),
    http.get(
      `${BASE}/v2/x`,
      () => new HttpResponse(text, { status, headers: { 'content-type': 'application/json' } }),
    ),
  );
}

const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

describe('an error body the SDK does not trust', () => {
  it('nested 10 000 deep is still an APIError, whose body is cut at a fixed depth', async () => {
    const deep = `{"code":"deep","message":"m","detail":${'{"a":'.repeat(10_000)}"${CANARY.accessToken}"${'}'.repeat(10_000)}}`;
    answerWith(deep, 500);
    const error = await rejection(testClient({ maxRetries: 0 }).request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'deep', message: 'GET /v2/x → 500 deep: m' });
    // Deeper levels are replaced (by a mark, not dropped), so the body can be logged and holds no secret.
    expect(depthOf(error.body)).toBe(33);
    const logged = JSON.stringify(error.body);
    expect(logged).toContain('"[too deep]"');
    expect(logged).not.toContain(CANARY.accessToken);
  });

  it('an array nested 10 000 deep, as the whole body, too', async () => {
    answerWith(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'http_400' });
  });

  it('a __proto__ key is just a key: the body stays a plain object with Object.prototype', async () => {
    answerWith(
      '{"code":"bad","message":"m","__proto__":{"polluted":true,"code":"x"},"nested":{"__proto__":{"polluted":true}}}',
    );
    const error = await rejection(testClient().request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(APIError);
    expect(error.code).toBe('bad');
    const body = error.body as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(body.nested)).toBe(Object.prototype);
    expect(Object.keys(body)).toEqual(['code', 'message', '__proto__', 'nested']);
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toEqual({ polluted: true, code: 'x' });
    expect((body as { polluted?: unknown }).polluted).toBeUndefined();
    expect((body.nested as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
