import { getEventListeners } from 'node:events';
import { delay, HttpResponse, http } from 'msw';
import { APITimeoutError } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, CANARY, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

const RECORDING = `${BASE}/v2/calls/c1/recording`;
const CHUNKS = [new Uint8Array([1, 2]), new Uint8Array([3, 4]), new Uint8Array([5])];

/**
 * A recording answer that counts what was taken from its body: `pulls` are chunks read off the
 * "connection" (pull-on-demand, as a socket's backpressure is), `cancelled` whether the reader gave the
 * connection up. `fetch` serves it as the client's `fetch`: msw's interceptor reads one chunk ahead
 * itself, so through msw the count would measure msw, not the SDK.
 */
function watchedRecording() {
  const watch = { pulls: 0, cancelled: false, requests: 0 };
  const chunks = [...CHUNKS];
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        watch.pulls++;
        const chunk = chunks.shift();
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        watch.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const headers = { 'content-type': 'audio/mpeg', 'content-length': '5', 'x-request-id': 'srv_42' };
  const response = () => new Response(stream, { status: 200, headers });
  const fetch = (async (request: Request) => {
    watch.requests++;
    expect(request.url).toBe(RECORDING);
    return response();
  }) as typeof globalThis.fetch;
  return { watch, response, fetch };
}

/** Lets every task the SDK may have queued run (a read-ahead would happen here). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const client = (fetch?: typeof globalThis.fetch) =>
  testClient({ accessToken: CANARY.accessToken, ...(fetch && { fetch }) });

describe('calls.downloadRecording(...).withResponse()', () => {
  // With a caller signal the body is wrapped to release the link to it: the case that read ahead.
  for (const withSignal of [false, true])
    it(`gives the headers with the body unread, then streams it once (${withSignal ? 'a' : 'no'} caller signal)`, async () => {
      const recording = watchedRecording();
      const sdk = client(recording.fetch);
      const ids: string[] = [];
      sdk.on('request', ({ requestId }) => ids.push(requestId));
      const options = withSignal ? { signal: new AbortController().signal } : undefined;

      const { data, response, requestId } = await sdk.calls
        .downloadRecording(RECORDING, options)
        .withResponse();
      await settle();
      expect(recording.watch.pulls).toBe(0);
      expect(response.bodyUsed).toBe(false);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(response.headers.get('content-length')).toBe('5');
      expect(response.headers.get('x-request-id')).toBe('srv_42');
      expect(requestId).toMatch(/^req_/);
      expect(ids).toEqual([requestId]);
      // One Response, one body: what `data` streams is what `response` holds.
      expect(data).toBe(response);
      expect(new Uint8Array(await data.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
      await expect(response.arrayBuffer()).rejects.toThrow(TypeError);
      expect(recording.watch.requests).toBe(1);
    });

  it('the body is read only as the caller reads it', async () => {
    const recording = watchedRecording();
    const { response } = await client(recording.fetch)
      .calls.downloadRecording(RECORDING, { signal: new AbortController().signal })
      .withResponse();
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).value).toEqual(new Uint8Array([1, 2]));
    await settle();
    expect(recording.watch.pulls).toBe(1);
    await reader.cancel();
  });

  it('cancelling the body gives the connection up and releases the caller signal', async () => {
    // Through the client's fetch, as the read-ahead tests: msw stands between the body and the SDK
    // (it reads ahead, and under one build its cancel never settled), so the source is watched there.
    const recording = watchedRecording();
    const signal = new AbortController().signal;
    const { response } = await client(recording.fetch)
      .calls.downloadRecording(RECORDING, { signal })
      .withResponse();
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    await response.body?.cancel('not needed');
    expect(recording.watch.cancelled).toBe(true);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('awaited without withResponse, it still resolves to the Response', async () => {
    const recording = watchedRecording();
    server.use(http.get(RECORDING, () => recording.response()));
    const response = await client().calls.downloadRecording(RECORDING);
    expect(response).toBeInstanceOf(Response);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
  });

  it('a call without a recording rejects withResponse too, before any request', async () => {
    await expect(
      client().calls.downloadRecording({ recording_url: null }).withResponse(),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [{ path: 'recording_url' }],
    });
  });

  it('maxResponseBytes does not cap it', async () => {
    const recording = watchedRecording();
    server.use(http.get(RECORDING, () => recording.response()));
    const { data } = await client()
      .calls.downloadRecording(RECORDING, { maxResponseBytes: 1 })
      .withResponse();
    expect((await data.arrayBuffer()).byteLength).toBe(5);
    expect(recording.watch.cancelled).toBe(false);
  });
});

describe('calls.downloadRecording(...).withResponse() and totalTimeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const realTimeClient = () =>
    testClient({
      accessToken: CANARY.accessToken,
      clock: { now: () => Date.now(), sleep: () => Promise.resolve() },
    });

  it('bounds the wait for the headers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let reached = () => {};
    const answering = new Promise<void>((resolve) => {
      reached = resolve;
    });
    server.use(
      http.get(RECORDING, async () => {
        reached();
        await delay('infinite');
        return new HttpResponse(null);
      }),
    );
    const pending = realTimeClient()
      .calls.downloadRecording(RECORDING, { totalTimeout: 500 })
      .withResponse()
      .catch((error: unknown) => error);
    await answering;
    await vi.advanceTimersByTimeAsync(500);
    const error = await pending;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as APITimeoutError).message).toMatch(/passed its totalTimeout of 500 ms/);
  });

  it('leaves the body, which the caller reads at its own pace, to the caller', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const recording = watchedRecording();
    server.use(http.get(RECORDING, () => recording.response()));
    const { data } = await realTimeClient()
      .calls.downloadRecording(RECORDING, { totalTimeout: 500 })
      .withResponse();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(new Uint8Array(await data.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
  });
});
