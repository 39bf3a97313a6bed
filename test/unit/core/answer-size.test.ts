import {
  AuthenticationError,
  InternalServerError,
  ResponseValidationError,
  TelephonyClient,
  ValidationError,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, CANARY, rejection, testClient } from '../../helpers/client.js';

const KIB = 1024;
const CHUNK = 16 * KIB;

/** A body the test watches: how many bytes it handed out, and whether the reader cancelled it. */
interface WatchedBody {
  stream: ReadableStream<Uint8Array>;
  sent: number;
  cancelled: boolean;
}

/** `total` bytes of `fill` in 16 KiB chunks, or an endless body when `total` is `Infinity`. */
function watchedBody(total: number, fill = 'x'): WatchedBody {
  const chunk = new TextEncoder().encode(fill.repeat(CHUNK));
  const watched: WatchedBody = {
    sent: 0,
    cancelled: false,
    stream: new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (watched.sent >= total) return controller.close();
          const part = chunk.subarray(0, Math.min(CHUNK, total - watched.sent));
          watched.sent += part.byteLength;
          controller.enqueue(part);
        },
        cancel() {
          watched.cancelled = true;
        },
      },
      // A chunk is made only when the reader asks for one, so `sent` is what was read.
      { highWaterMark: 0 },
    ),
  };
  return watched;
}

/** A client whose fetch answers every request with `answer()`; no socket, no token request. */
function clientAnswering(
  answer: (request: Request) => Response,
  options: { maxResponseBytes?: number } = {},
) {
  return testClient({
    accessToken: CANARY.accessToken,
    maxRetries: 0,
    fetch: (async (request: Request) => answer(request)) as typeof fetch,
    ...options,
  });
}

/** A client-credentials client (capped at 64 KiB) whose token request is answered with `answer()`. */
function tokenClient(answer: () => Response) {
  return new TelephonyClient({
    baseUrl: BASE,
    clientId: CANARY.clientId,
    clientSecret: CANARY.clientSecret,
    maxResponseBytes: 64 * KIB,
    fetch: (async () => answer()) as typeof fetch,
  });
}

describe('maxResponseBytes: a 2xx answer', () => {
  it('an endless body rejects with ResponseValidationError response_too_large and is cancelled at the cap', async () => {
    const body = watchedBody(Number.POSITIVE_INFINITY);
    const client = clientAnswering(() => new Response(body.stream), { maxResponseBytes: 256 * KIB });
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      code: 'response_too_large',
      message: 'GET /v2/x → 200: the body is longer than maxResponseBytes (262144)',
      issues: [{ path: '', message: 'longer than maxResponseBytes' }],
    });
    expect(body.cancelled).toBe(true);
    // Read up to the cap and the chunk that crossed it, no further.
    expect(body.sent).toBe(256 * KIB + CHUNK);
  });

  it('the default cap is 8 MiB: a body of exactly 8 MiB is read, one byte more is refused', async () => {
    const json = (size: number) => `"${'a'.repeat(size - 2)}"`;
    const exact = await clientAnswering(() => new Response(json(8 * 1024 * KIB))).request({
      method: 'GET',
      path: '/v2/x',
    });
    expect(exact).toHaveLength(8 * 1024 * KIB - 2);
    const over = await rejection(
      clientAnswering(() => new Response(json(8 * 1024 * KIB + 1))).request({ method: 'GET', path: '/v2/x' }),
    );
    expect(over).toBeInstanceOf(ResponseValidationError);
    expect(over).toMatchObject({ code: 'response_too_large' });
  });

  it('a call may set its own cap, above or below the client’s', async () => {
    const client = clientAnswering(() => new Response('{"status":"success","data":{}}'), {
      maxResponseBytes: 10,
    });
    await expect(client.request({ method: 'GET', path: '/v2/x' })).rejects.toMatchObject({
      name: 'ResponseValidationError',
      code: 'response_too_large',
    });
    await expect(
      client.request({ method: 'GET', path: '/v2/x' }, { maxResponseBytes: 1000 }),
    ).resolves.toEqual({ status: 'success', data: {} });
    const small = await rejection(
      clientAnswering(() => new Response('"12345"')).request(
        { method: 'GET', path: '/v2/x' },
        { maxResponseBytes: 6 },
      ),
    );
    expect(small).toMatchObject({ code: 'response_too_large' });
  });

  it('other answers the SDK cannot use keep code invalid_response', async () => {
    const error = await rejection(
      clientAnswering(() => new Response('{"status":')).request({ method: 'GET', path: '/v2/x' }),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.code).toBe('invalid_response');
  });

  it('the token request’s answer is capped too', async () => {
    const body = watchedBody(Number.POSITIVE_INFINITY, ' ');
    const client = tokenClient(() => new Response(body.stream));
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ code: 'response_too_large' });
    expect(error.message).toMatch(/^POST \/v2\/oauth\/token → 200: the body is longer than/);
    expect(body.cancelled).toBe(true);
  });

  it('downloadRecording streams to the caller, uncapped', async () => {
    const body = watchedBody(64 * KIB);
    const client = clientAnswering(() => new Response(body.stream), { maxResponseBytes: KIB });
    const response = await client.calls.downloadRecording(`${BASE}/v2/calls/c1/recording`);
    expect((await response.arrayBuffer()).byteLength).toBe(64 * KIB);
    expect(body.cancelled).toBe(false);
  });
});

describe('maxResponseBytes: an error answer', () => {
  it('longer than the cap keeps its class and status, with a message from its first bytes', async () => {
    const body = watchedBody(Number.POSITIVE_INFINITY, 'Internal error; ');
    const client = clientAnswering(() => new Response(body.stream, { status: 500 }), {
      maxResponseBytes: 64 * KIB,
    });
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'http_500' });
    expect(error.message).toBe(
      `GET /v2/x → 500 http_500: HTTP 500, body longer than 65536 bytes, first bytes: ${'Internal error; '.repeat(12)}Internal…`,
    );
    expect(body.cancelled).toBe(true);
    expect(body.sent).toBe(64 * KIB + CHUNK);
    // What is kept of the body: its first bytes, less the end where the cut may split a credential.
    expect(typeof error.body).toBe('string');
    expect((error.body as string).length).toBe(64 * KIB - 4 * KIB);
  });

  it('a failed token request keeps AuthenticationError with a body past the cap', async () => {
    const body = watchedBody(Number.POSITIVE_INFINITY, '<p>no</p>');
    const client = tokenClient(() => new Response(body.stream, { status: 401 }));
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'http_401' });
    expect(error.message).toMatch(
      /^POST \/v2\/oauth\/token → 401 http_401: HTTP 401, body longer than 65536 bytes/,
    );
    expect(body.cancelled).toBe(true);
  });
});

describe('reading an error answer is linear in its size', () => {
  const timed = async (text: string) => {
    const client = clientAnswering(() => new Response(text, { status: 502 }));
    const started = performance.now();
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    return { error, ms: performance.now() - started };
  };

  it('a run of "<" without ">" (quadratic for a tag-stripping regex) takes milliseconds', async () => {
    // 64 KiB took the old mapping about 2 s; 1 MiB would have taken minutes.
    const small = await timed('<'.repeat(64 * KIB));
    expect(small.error).toBeInstanceOf(InternalServerError);
    expect(small.ms).toBeLessThan(500);
    const large = await timed(`${'<a'.repeat(256 * KIB)}${'<'.repeat(512 * KIB)}`);
    expect(large.error).toBeInstanceOf(InternalServerError);
    expect(large.error.message).toBe(
      `GET /v2/x → 502 http_502: HTTP 502, non-JSON body: ${'<a'.repeat(100)}…`,
    );
    expect(large.ms).toBeLessThan(1000);
  });

  it('tags are still stripped from an HTML page', async () => {
    const { error } = await timed('<html><body><h1>502 Bad Gateway</h1>\n<p>nginx</p></body></html>');
    expect(error.message).toBe('GET /v2/x → 502 http_502: HTTP 502, non-JSON body: 502 Bad Gateway nginx');
  });
});

describe('maxResponseBytes: the option', () => {
  it.each([-1, 1.5, Number.POSITIVE_INFINITY, Number.NaN, '1024'])(
    '%s is refused at construction and per call, naming the option',
    async (value) => {
      const issue = { path: 'maxResponseBytes', message: expect.stringMatching(/^must be /) };
      expect(() => testClient({ maxResponseBytes: value as number })).toThrow(
        expect.objectContaining({ name: 'ValidationError', issues: [issue] }),
      );
      const call = await rejection(
        testClient().request({ method: 'GET', path: '/v2/x' }, { maxResponseBytes: value as number }),
      );
      expect(call).toBeInstanceOf(ValidationError);
      expect(call).toMatchObject({ issues: [issue] });
    },
  );

  it('0, like the other counts, is a cap: only an empty body gets through', async () => {
    const client = clientAnswering(() => new Response(null, { status: 204 }), { maxResponseBytes: 0 });
    await expect(client.request({ method: 'DELETE', path: '/v2/x' })).resolves.toBeUndefined();
    const full = clientAnswering(() => new Response('{}'), { maxResponseBytes: 0 });
    await expect(full.request({ method: 'GET', path: '/v2/x' })).rejects.toMatchObject({
      code: 'response_too_large',
    });
  });
});
