import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSandbox } from './helpers.js';

const AUDIO = new Uint8Array(4096).map((_, i) => i % 251);
const HALF = AUDIO.length / 2;

/** Headers node's HTTP client sets itself, which fetch refuses to be given. */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

const fronts: Server[] = [];
afterEach(async () => {
  await Promise.all(
    fronts.splice(0).map(
      (front) =>
        new Promise((resolve) => {
          front.closeAllConnections();
          front.close(resolve);
        }),
    ),
  );
});

/**
 * A recording the test lets out: the headers at once, the first half of the body when `sendFirstHalf`
 * is called, the rest when `finish` is. `closed` resolves when the client leaves, with whether the
 * answer was sent in full.
 */
function heldRecording() {
  let answer: ServerResponse | undefined;
  let arrived = () => {};
  const requested = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let closed: Promise<boolean> = Promise.resolve(false);
  const recording = {
    requests: 0,
    authorization: undefined as string | undefined,
    requested,
    bodyBytesSent: 0,
    serve(request: IncomingMessage, response: ServerResponse) {
      recording.requests++;
      recording.authorization = request.headers.authorization;
      answer = response;
      closed = new Promise((resolve) => response.on('close', () => resolve(response.writableFinished)));
      response.writeHead(200, {
        'content-type': 'audio/wav',
        'content-length': String(AUDIO.length),
        'x-request-id': 'srv_rec_1',
      });
      response.flushHeaders();
      arrived();
    },
    sendFirstHalf() {
      answer?.write(AUDIO.subarray(0, HALF));
      recording.bodyBytesSent = HALF;
    },
    finish() {
      answer?.end(AUDIO.subarray(HALF));
      recording.bodyBytesSent = AUDIO.length;
    },
    closed: () => closed,
  };
  return recording;
}

/**
 * The sandbox over real HTTP, behind a front on 127.0.0.1 that serves the call's recording itself (the
 * sandbox serves no audio) and passes every other request to the sandbox's `listen()` server.
 */
async function sandboxWithRecordings() {
  const served = await serveSandbox();
  const recording = heldRecording();
  const front = createServer(async (request, response) => {
    if (/^\/v2\/calls\/[^/]+\/recording$/.test(request.url ?? '')) return recording.serve(request, response);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)) as [
      string,
      string,
    ][];
    const answer = await fetch(`${served.server.url}${request.url}`, {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const kept = [...answer.headers].filter(([name]) => !HOP_BY_HOP.has(name));
    response.writeHead(answer.status, Object.fromEntries(kept));
    response.end(body);
  });
  fronts.push(front);
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const client = served.client({ baseUrl: url, baseUrlV1: url });
  return { ...served, client, recording };
}

/** A recorded call of the sandbox, ended: it has a `recording_url`. */
async function endedRecordedCall({ client, sandbox }: Awaited<ReturnType<typeof sandboxWithRecordings>>) {
  const placed = await client.calls.create({ to: '+14155550123', record: true });
  await sandbox.advance(5_000);
  await client.calls.end(placed.id);
  const call = await client.calls.get(placed.id);
  expect(call.recording_url).toBe(`/v2/calls/${placed.id}/recording`);
  return call;
}

describe('calls.downloadRecording over real HTTP', () => {
  it('withResponse() resolves at the headers, before any byte of the body is sent; the body streams once', async () => {
    const served = await sandboxWithRecordings();
    const { client, recording } = served;
    const call = await endedRecordedCall(served);
    const ids: string[] = [];
    client.on('response', ({ requestId, url }) => {
      if (url.endsWith('/recording')) ids.push(requestId);
    });

    const { data, response, requestId } = await client.calls.downloadRecording(call).withResponse();
    expect(recording.bodyBytesSent).toBe(0);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('content-length')).toBe(String(AUDIO.length));
    expect(response.headers.get('x-request-id')).toBe('srv_rec_1');
    expect(ids).toEqual([requestId]);
    expect(recording.authorization).toMatch(/^Bearer /);
    expect(data).toBe(response);

    recording.sendFirstHalf();
    recording.finish();
    expect(new Uint8Array(await data.arrayBuffer())).toEqual(AUDIO);
    await expect(response.arrayBuffer()).rejects.toThrow(TypeError);
    expect(await recording.closed()).toBe(true);
    expect(recording.requests).toBe(1);
  });

  for (const withSignal of [false, true])
    it(`cancelling the body part-way closes the connection (${withSignal ? 'a' : 'no'} caller signal)`, async () => {
      const served = await sandboxWithRecordings();
      const { client, recording } = served;
      const call = await endedRecordedCall(served);
      const options = withSignal ? { signal: new AbortController().signal } : undefined;
      const { response } = await client.calls.downloadRecording(call, options).withResponse();
      recording.sendFirstHalf();
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      await reader.cancel('enough');
      // The server sees its client leave with the answer unfinished: the connection is given up.
      expect(await recording.closed()).toBe(false);
      expect(recording.requests).toBe(1);
    });
});
