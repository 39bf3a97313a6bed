/**
 * API.md, Tracing, with the real OpenTelemetry SDK (an in-memory exporter): an operation span per
 * call, a CLIENT span per attempt with the HTTP semantic conventions' attributes, waits as events,
 * the attempt's own `traceparent` on the wire, and no secret anywhere in what is exported.
 */
import { trace } from '@opentelemetry/api';
import { HttpResponse, http } from 'msw';
import {
  APIConnectionError,
  AuthenticationError,
  NotFoundError,
  type TelephonyClient,
  ValidationError,
} from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { detailCall, recentCallsBody } from '../../fixtures/calls.js';
import { BASE, BASE_V1, CANARY, rejection, SECRETS, testClient, tokenHandler } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { server } from '../../helpers/server.js';
import { asyncContext, attemptPaths, otel, spanTree, traceparentOf } from '../../helpers/tracing.js';

asyncContext();

const detail = { status: 'success', data: { call: detailCall('call_1') } };

/** `calls/recent` in two pages of one call each (`call_0`, `call_1`). */
const twoPages = () =>
  http.get(`${BASE}/v2/calls/recent`, ({ request }) => {
    const offset = Number(new URL(request.url).searchParams.get('offset') ?? 0);
    return HttpResponse.json(
      recentCallsBody([`call_${offset}`], { total: 2, limit: 1, offset, has_more: offset === 0 }),
    );
  });

/** A client with a static token (no token request) and the given tracer. */
function traced(tracer: ReturnType<typeof otel>['tracer'], overrides = {}): TelephonyClient {
  return testClient({
    clientId: undefined,
    clientSecret: undefined,
    accessToken: CANARY.accessToken,
    tracer,
    ...overrides,
  });
}

describe('operation and attempt spans', () => {
  it('a retried call: the operation span, two attempt spans (resend_count on the second) and the back-off as an event', async () => {
    const { tracer, spans } = otel();
    const clock = fakeClock();
    const traceparents: Array<string | null> = [];
    let answers = 0;
    server.use(
      http.get(`${BASE}/v2/calls/call_1`, ({ request }) => {
        traceparents.push(request.headers.get('traceparent'));
        return answers++ === 0 ? HttpResponse.json({}, { status: 503 }) : HttpResponse.json(detail);
      }),
    );
    await traced(tracer, { clock }).calls.get('call_1');
    // The back-off is jittered: what the clock was asked to wait is what the event says.
    expect(clock.waits).toHaveLength(1);
    expect(spanTree(spans())).toBe(
      [
        'calls.get [INTERNAL]',
        `  · telephony.wait telephony.wait.reason=retry telephony.wait.ms=${clock.waits[0]}`,
        '  GET [CLIENT ERROR] http.request.method=GET url.full=https://api.test/v2/calls/call_1 server.address=api.test server.port=443 http.response.status_code=503 error.type=503',
        '  GET [CLIENT] http.request.method=GET url.full=https://api.test/v2/calls/call_1 server.address=api.test server.port=443 http.request.resend_count=1 http.response.status_code=200',
      ].join('\n'),
    );
    // Each attempt carried the traceparent naming its own span.
    const attempts = spans().filter((span) => span.name === 'GET');
    expect(attempts).toHaveLength(2);
    expect(traceparents).toEqual(attempts.map(traceparentOf));
    expect(new Set(traceparents).size).toBe(2);
  });

  it('a paced call: the wait for rate budget is an event on its operation span', async () => {
    const { tracer, spans } = otel();
    server.use(http.get(`${BASE}/v2/calls/call_1`, () => HttpResponse.json(detail)));
    const client = traced(tracer, { clock: fakeClock(), rateLimit: { requestsPerMinute: 1 } });
    await client.calls.get('call_1');
    await client.calls.get('call_1');
    const [, paced] = spans().filter((span) => span.name === 'calls.get');
    expect(paced?.events.map((event) => [event.name, event.attributes])).toEqual([
      ['telephony.wait', { 'telephony.wait.reason': 'pacing', 'telephony.wait.ms': 61_000 }],
    ]);
    expect(spans().filter((span) => span.name === 'GET')).toHaveLength(2);
  });

  it("a 429's pause is a 'paused' wait on the next call's span", async () => {
    const { tracer, spans } = otel();
    let answers = 0;
    server.use(
      http.get(`${BASE}/v2/calls/call_1`, () =>
        answers++ === 0
          ? HttpResponse.json({}, { status: 429, headers: { 'retry-after': '2' } })
          : HttpResponse.json(detail),
      ),
    );
    const client = traced(tracer, { maxRetries: 0 });
    await rejection(client.calls.get('call_1'));
    await client.calls.get('call_1');
    const [first, second] = spans().filter((span) => span.name === 'calls.get');
    expect(first?.attributes['error.type']).toBe('RateLimitError');
    expect(second?.events.map((event) => event.attributes)).toEqual([
      { 'telephony.wait.reason': 'paused', 'telephony.wait.ms': 2000 },
    ]);
  });

  it('a call that rejects: its operation span is ERROR with the error class, its attempt with the status code', async () => {
    const { tracer, spans } = otel();
    server.use(
      http.get(`${BASE}/v2/calls/nope`, () =>
        HttpResponse.json(
          { status: 'error', error: { code: 'not_found', message: 'no call' } },
          { status: 404 },
        ),
      ),
    );
    expect(await rejection(traced(tracer).calls.get('nope'))).toBeInstanceOf(NotFoundError);
    expect(spanTree(spans())).toBe(
      [
        'calls.get [INTERNAL ERROR] error.type=NotFoundError',
        '  GET [CLIENT ERROR] http.request.method=GET url.full=https://api.test/v2/calls/nope server.address=api.test server.port=443 http.response.status_code=404 error.type=404',
      ].join('\n'),
    );
  });

  it('an attempt without an answer fails with the error class, retried ones included', async () => {
    const { tracer, spans } = otel();
    server.use(http.get(`${BASE}/v2/calls/call_1`, () => HttpResponse.error()));
    expect(await rejection(traced(tracer, { maxRetries: 1 }).calls.get('call_1'))).toBeInstanceOf(
      APIConnectionError,
    );
    const attempts = spans().filter((span) => span.name === 'GET');
    expect(attempts.map((span) => [span.attributes['error.type'], span.status.code])).toEqual([
      ['APIConnectionError', 2],
      ['APIConnectionError', 2],
    ]);
    expect(attempts.map((span) => span.attributes['http.response.status_code'])).toEqual([
      undefined,
      undefined,
    ]);
    expect(spans().find((span) => span.name === 'calls.get')?.attributes['error.type']).toBe(
      'APIConnectionError',
    );
  });

  it('a call refused before anything is sent still has its operation span', async () => {
    const { tracer, spans } = otel();
    expect(await rejection(traced(tracer).calls.get(''))).toBeInstanceOf(ValidationError);
    expect(spanTree(spans())).toBe('calls.get [INTERNAL ERROR] error.type=ValidationError');
  });

  it('the token request is an attempt span under the call that needed it', async () => {
    const { tracer, spans } = otel();
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/calls/call_1`, () => HttpResponse.json(detail)),
    );
    await testClient({ tracer }).calls.get('call_1');
    expect(spanTree(spans())).toBe(
      [
        'calls.get [INTERNAL]',
        '  POST [CLIENT] http.request.method=POST url.full=https://api.test/v2/oauth/token server.address=api.test server.port=443 http.response.status_code=200',
        '  GET [CLIENT] http.request.method=GET url.full=https://api.test/v2/calls/call_1 server.address=api.test server.port=443 http.response.status_code=200',
      ].join('\n'),
    );
  });

  it("the caller's active span is the operation's parent: one trace", async () => {
    const { tracer, spans } = otel();
    server.use(http.get(`${BASE}/v2/calls/call_1`, () => HttpResponse.json(detail)));
    const client = traced(tracer);
    await tracer.startActiveSpan('handle request', async (span) => {
      await client.calls.get('call_1');
      span.end();
    });
    expect(
      spanTree(spans())
        .split('\n')
        .map((line) => line.split(' [')[0]),
    ).toEqual(['handle request', '  calls.get', '    GET']);
    expect(new Set(spans().map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('each page of a list is an operation named as the list', async () => {
    const { tracer, spans } = otel();
    server.use(twoPages());
    const ids: string[] = [];
    for await (const call of traced(tracer).calls.listRecent({ limit: 1 })) ids.push(call.id);
    expect(ids).toEqual(['call_0', 'call_1']);
    const tree = spanTree(spans()).split('\n');
    expect(tree.map((line) => line.split(' [')[0])).toEqual([
      'calls.listRecent',
      '  GET',
      'calls.listRecent',
      '  GET',
    ]);
    expect(tree.filter((line) => line.includes('offset=1'))).toHaveLength(1);
  });

  it("a page's next request is under the next page's own call, while another call runs", async () => {
    const { tracer, spans } = otel();
    server.use(
      twoPages(),
      http.get(`${BASE}/v2/calls/call_x`, () => HttpResponse.json(detail)),
    );
    const client = traced(tracer);
    const first = await tracer.startActiveSpan('first', (span) =>
      client.calls.listRecent({ limit: 1 }).finally(() => span.end()),
    );
    const [next] = await Promise.all([
      tracer.startActiveSpan('next', (span) => first.getNextPage().finally(() => span.end())),
      tracer.startActiveSpan('other', (span) => client.calls.get('call_x').finally(() => span.end())),
    ]);
    expect(next.items.map((call) => call.id)).toEqual(['call_1']);
    expect(attemptPaths(spans())).toEqual(
      new Set([
        'first > calls.listRecent > GET > /v2/calls/recent?limit=1',
        'next > calls.listRecent > GET > /v2/calls/recent?limit=1&offset=1',
        'other > calls.get > GET > /v2/calls/call_x',
      ]),
    );
  });
  it('methods are named as called: users.list, calls.create, request', async () => {
    const { tracer, spans } = otel();
    server.use(http.all('*', () => HttpResponse.json({ status: 'success', data: {} }, { status: 500 })));
    const client = traced(tracer, { maxRetries: 0 });
    await rejection(client.users.list());
    await rejection(client.calls.create({ to: '+15550000000' }));
    await rejection(client.request({ method: 'GET', path: '/v2/contacts' }));
    expect(
      spans()
        .filter((span) => span.kind === 0)
        .map((span) => span.name),
    ).toEqual(['users.list', 'calls.create', 'request']);
  });
});

describe('secrets', () => {
  it('no span name, attribute, event or status holds a credential or a pre-signed query', async () => {
    const { tracer, spans } = otel();
    let answers = 0;
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/calls/call_1`, () =>
        answers++ === 0
          ? HttpResponse.json({ error: `bad token ${CANARY.accessToken}` }, { status: 503 })
          : HttpResponse.json(detail),
      ),
      http.get(`${BASE}/v2/recordings/r1.wav`, () => new HttpResponse('audio')),
      http.get(`${BASE_V1}/v1/users/u1`, () =>
        HttpResponse.json({ message: CANARY.apiKey }, { status: 401 }),
      ),
    );
    const client = testClient({ tracer });
    await client.calls.get('call_1');
    const signature = 'X-Amz-Signature=sig_CANARY_QUERY_0b1d';
    await client.calls.downloadRecording(`${BASE}/v2/recordings/r1.wav?${signature}`);
    expect(await rejection(client.users.get('u1'))).toBeInstanceOf(AuthenticationError);
    const exported = JSON.stringify(
      spans().map((span) => [span.name, span.attributes, span.events, span.status]),
    );
    for (const secret of [...SECRETS, signature, 'sig_CANARY']) expect(exported).not.toContain(secret);
    expect(exported).toContain('"url.full":"https://api.test/v2/recordings/r1.wav"');
    expect(spans().map((span) => span.name)).toContain('calls.downloadRecording');
  });
});

describe('without a tracer', () => {
  it('sends no traceparent header and records nothing', async () => {
    const { spans } = otel();
    const headers: Array<string | null> = [];
    server.use(
      http.get(`${BASE}/v2/calls/call_1`, ({ request }) => {
        headers.push(request.headers.get('traceparent'));
        return HttpResponse.json(detail);
      }),
    );
    await testClient({
      accessToken: CANARY.accessToken,
      clientId: undefined,
      clientSecret: undefined,
    }).calls.get('call_1');
    expect(headers).toEqual([null]);
    expect(spans()).toEqual([]);
  });

  it("a no-op tracer (the API's default) sends no traceparent", async () => {
    const headers: Array<string | null> = [];
    server.use(
      http.get(`${BASE}/v2/calls/call_1`, ({ request }) => {
        headers.push(request.headers.get('traceparent'));
        return HttpResponse.json(detail);
      }),
    );
    // Without a registered provider, the API hands out a tracer whose spans have the invalid context.
    await traced(trace.getTracer('unregistered')).calls.get('call_1');
    expect(headers).toEqual([null]);
  });

  it('a tracer that is no Tracer is refused, naming the option', () => {
    expect(() => testClient({ tracer: {} as never })).toThrow(ValidationError);
    try {
      testClient({ tracer: {} as never });
    } catch (error) {
      expect((error as ValidationError).issues).toEqual([
        { path: 'tracer', message: 'must be an OpenTelemetry Tracer' },
      ]);
    }
  });
});
