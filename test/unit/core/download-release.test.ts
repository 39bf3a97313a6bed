import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BASE, CANARY, testClient } from '../../helpers/client.js';

const RECORDING = `${BASE}/v2/calls/c1/recording`;

/**
 * A fetch serving a recording of two chunks, whose body stops with the request's signal as a real fetch's
 * does. `failing`: the body errors after its first chunk.
 */
function recordingFetch(failing = false): typeof fetch {
  return (async (request: Request) => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3])];
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          request.signal.addEventListener('abort', () => controller.error(request.signal.reason));
        },
        pull(controller) {
          const chunk = chunks.shift();
          if (failing && chunk === undefined) controller.error(new Error('connection reset'));
          else if (chunk === undefined) controller.close();
          else controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const response = new Response(body, { status: 200, headers: { 'content-type': 'audio/mpeg' } });
    Object.defineProperty(response, 'url', { value: request.url });
    return response;
  }) as typeof fetch;
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('downloadRecording with a long-lived caller signal', () => {
  it('keeps no link to the signal once each body is read to the end, cancelled or failed', async () => {
    const signal = new AbortController().signal;
    const client = testClient({ accessToken: CANARY.accessToken, fetch: recordingFetch() });
    for (let i = 0; i < 20; i++) {
      const response = await client.calls.downloadRecording(RECORDING, { signal });
      // While the caller has the body, its abort still reaches the fetch.
      expect(listeners(signal)).toBe(1);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    }
    expect(listeners(signal)).toBe(0);

    for (let i = 0; i < 20; i++) {
      const response = await client.calls.downloadRecording(RECORDING, { signal });
      await response.body?.cancel();
    }
    expect(listeners(signal)).toBe(0);

    const failing = testClient({ accessToken: CANARY.accessToken, fetch: recordingFetch(true) });
    for (let i = 0; i < 20; i++) {
      const response = await failing.calls.downloadRecording(RECORDING, { signal });
      await expect(response.arrayBuffer()).rejects.toThrow();
    }
    expect(listeners(signal)).toBe(0);
  });

  it("the caller's abort while it reads still stops the read, and the link is released", async () => {
    const controller = new AbortController();
    const client = testClient({ accessToken: CANARY.accessToken, fetch: recordingFetch() });
    const response = await client.calls.downloadRecording(RECORDING, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).value).toEqual(new Uint8Array([1, 2]));
    controller.abort('user left');
    await expect(reader.read()).rejects.toBe('user left');
    expect(listeners(controller.signal)).toBe(0);
  });

  it('the response keeps its status, headers and URL', async () => {
    const signal = new AbortController().signal;
    const client = testClient({ accessToken: CANARY.accessToken, fetch: recordingFetch() });
    const response = await client.calls.downloadRecording(`${RECORDING}?sig=abc`, { signal });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.url).toBe(`${RECORDING}?sig=abc`);
    await response.body?.cancel();
  });
});
