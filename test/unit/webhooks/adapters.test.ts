import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { body as fixture, header, incoming, SECRET } from './helpers.js';

/** The fixture event, created now (the receiver refuses one older than maxEventAge). */
const created_at = new Date().toISOString();
const body = (event: object = { ...incoming, created_at }) => fixture(event);

const now = () => Math.floor(Date.now() / 1000);
const signed = (raw = body()) => ({
  'content-type': 'application/json',
  'service-signature': header(raw, SECRET, now()),
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
}

describe('nodeHandler behind node:http on 127.0.0.1', () => {
  it('reads the exact bytes (multi-byte UTF-8 split across chunks) and answers 200, then 200 duplicate', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    const names: string[] = [];
    receiver.on('call.incoming', (event) => {
      names.push(event.data.call.from.name ?? '');
    });
    const url = await serve(receiver.nodeHandler);
    const raw = body({
      id: 'evt_u',
      type: 'call.incoming',
      created_at: new Date().toISOString(),
      data: { call: { from: { name: 'Zoë 📞' } } },
    });
    const bytes = new TextEncoder().encode(raw);
    const stream = new ReadableStream({
      start(controller) {
        // Split inside a multi-byte character: decoding per chunk would corrupt it.
        const cut = raw.indexOf('ë') + 1;
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: signed(raw),
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    expect((await fetch(url, { method: 'POST', headers: signed(raw), body: raw })).status).toBe(200);
    expect(names).toEqual(['Zoë 📞']);
  });

  it('answers 401 for a wrong secret, 400 without a header, 405 for GET, 500 when a handler fails', async () => {
    const receiver = new WebhookReceiver({ secret: 'other' });
    const url = await serve(receiver.nodeHandler);
    expect((await fetch(url, { method: 'POST', headers: signed(), body: body() })).status).toBe(401);
    expect((await fetch(url, { method: 'POST', body: body() })).status).toBe(400);
    const get = await fetch(url);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const failing = new WebhookReceiver({ secret: SECRET });
    failing.on('*', () => {
      throw new Error('boom');
    });
    const url2 = await serve(failing.nodeHandler);
    expect((await fetch(url2, { method: 'POST', headers: signed(), body: body() })).status).toBe(500);
  });

  it('uses a Buffer from express.raw() and explains when a JSON parser consumed the body', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    const raw = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => receiver.nodeHandler(Object.assign(req, { body: Buffer.concat(chunks) }), res));
    });
    expect((await fetch(raw, { method: 'POST', headers: signed(), body: body() })).status).toBe(200);
    const parsed = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        receiver.nodeHandler(Object.assign(req, { body: JSON.parse(Buffer.concat(chunks).toString()) }), res),
      );
    });
    const res = await fetch(parsed, { method: 'POST', headers: signed(), body: body() });
    expect(res.status).toBe(500);
    // Plain node:http: no framework to name, so the general advice.
    expect(await res.text()).toMatch(/already read by a body parser.*exact bytes as a Buffer in req\.body$/);
  });

  it('explains when the stream was read to its end and nothing kept the bytes', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    let ran = 0;
    receiver.on('*', () => {
      ran++;
    });
    const url = await serve((req, res) => {
      req.on('data', () => {});
      req.on('end', () => receiver.nodeHandler(req, res));
    });
    const res = await fetch(url, { method: 'POST', headers: signed(), body: body() });
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/already read by a body parser/);
    expect(ran).toBe(0);
  });
});

describe('body limits and skipped body parsers', () => {
  const streamOf = (size: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let sent = 0; sent < size; sent += 1024) controller.enqueue(new Uint8Array(1024));
        controller.close();
      },
    });

  it('nodeHandler answers 413 past maxBodyBytes, by Content-Length or while streaming, without verifying', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET, maxBodyBytes: 4096 });
    const refused: string[] = [];
    receiver.on('verification_failed', ({ reason }) => refused.push(reason));
    const url = await serve(receiver.nodeHandler);
    const declared = await fetch(url, { method: 'POST', headers: signed(), body: new Uint8Array(5000) });
    const streamed = await fetch(url, {
      method: 'POST',
      headers: signed(),
      body: streamOf(8192),
      duplex: 'half',
    } as RequestInit);
    expect([declared.status, streamed.status]).toEqual([413, 413]);
    expect(refused).toEqual([]);
    expect((await fetch(url, { method: 'POST', headers: signed(), body: body() })).status).toBe(200);
  });

  it('fetchHandler answers 413 past maxBodyBytes (default 1 MiB), by Content-Length or while streaming', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    expect(receiver.maxBodyBytes).toBe(1_048_576);
    const big = new Request('http://127.0.0.1/hooks', {
      method: 'POST',
      headers: { ...signed(), 'content-length': String(2 ** 21) },
      body: 'x',
    });
    expect((await receiver.fetchHandler(big)).status).toBe(413);
    const streamed = new Request('http://127.0.0.1/hooks', {
      method: 'POST',
      headers: signed(),
      body: streamOf(1_048_576 + 1024),
      duplex: 'half',
    } as RequestInit);
    expect((await receiver.fetchHandler(streamed)).status).toBe(413);
  });

  it("reads the stream when Express 4's parsers skipped the request and left body = {}", async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    const url = await serve((req, res) => receiver.nodeHandler(Object.assign(req, { body: {} }), res));
    expect((await fetch(url, { method: 'POST', headers: signed(), body: body() })).status).toBe(200);
  });
});

describe('nodeHandler answers', () => {
  it("repeats only the SDK's own misuse messages: a broken stream is a bare 500", async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    const listeners = new Map<string, (chunk: Uint8Array) => void>();
    const answered: { status?: number; body?: string | undefined } = {};
    const done = new Promise<void>((resolve) => {
      receiver.nodeHandler(
        {
          method: 'POST',
          headers: {},
          on: (event, listener) => listeners.set(event, listener),
        },
        {
          writeHead: (status) => {
            answered.status = status;
          },
          end: (text) => {
            answered.body = text;
            resolve();
          },
        },
      );
    });
    (listeners.get('error') as (error: unknown) => void)(new Error('internal detail: /srv/secrets.env'));
    await done;
    expect(answered).toEqual({ status: 500, body: undefined });
  });
});

describe('fetchHandler with a real Request', () => {
  it('answers 200, 401, 405', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    let ran = 0;
    receiver.on('call.incoming', () => {
      ran++;
    });
    const raw = body();
    const request = (headers: Record<string, string>, method = 'POST') =>
      new Request('http://127.0.0.1/hooks', method === 'POST' ? { method, headers, body: raw } : { method });
    expect((await receiver.fetchHandler(request(signed(raw)))).status).toBe(200);
    expect(
      (await receiver.fetchHandler(request({ 'service-signature': header(body(), 'x', now()) }))).status,
    ).toBe(401);
    const get = await receiver.fetchHandler(request({}, 'GET'));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect(ran).toBe(1);
  });

  it('answers 400 without a header, 500 when a handler fails, and verifies the exact bytes', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    let fail = true;
    const names: string[] = [];
    receiver.on('call.incoming', (event) => {
      if (fail) throw new Error('db down');
      names.push(event.data.call.from.name ?? '');
    });
    const raw = body({
      id: 'evt_f',
      type: 'call.incoming',
      created_at: new Date().toISOString(),
      data: { call: { from: { name: 'Zoë' } } },
    });
    const post = (headers: Record<string, string>) =>
      receiver.fetchHandler(
        new Request('http://127.0.0.1/hooks', {
          method: 'POST',
          headers,
          body: new TextEncoder().encode(raw),
        }),
      );
    expect((await post({})).status).toBe(400);
    expect((await post(signed(raw))).status).toBe(500);
    fail = false;
    expect((await post(signed(raw))).status).toBe(200);
    expect(names).toEqual(['Zoë']);
  });
});

describe('a body parser mounted before the receiver (issue 12)', () => {
  /** What express.json() (or express.text(), given `parse = String`) does: reads the whole stream, then sets req.body. */
  const jsonParser =
    (
      next: (req: IncomingMessage, res: ServerResponse) => void,
      parse: (text: string) => unknown = JSON.parse,
    ) =>
    (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => next(Object.assign(req, { body: parse(Buffer.concat(chunks).toString()) }), res));
    };
  const post = (url: string) => fetch(url, { method: 'POST', headers: signed(), body: body() });

  it('answers 500 to the sender and tells a body_already_read listener how to fix it, no warning', async () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const receiver = new WebhookReceiver({ secret: SECRET });
    const reported: unknown[] = [];
    let ran = 0;
    receiver.on('*', () => void ran++);
    receiver.on('body_already_read', (info) => void reported.push(info));
    const url = await serve(jsonParser(receiver.nodeHandler));
    const res = await post(url);
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/already read by a body parser/);
    expect(reported).toEqual([
      {
        status: 500,
        message: expect.stringMatching(/mount the receiver before it, or pass the exact bytes as a Buffer/),
      },
    ]);
    // express.text(): req.body is the decoded string, which may not be the exact bytes either.
    expect((await post(await serve(jsonParser(receiver.nodeHandler, String)))).status).toBe(500);
    expect(reported).toHaveLength(2);
    expect(ran).toBe(0);
    expect(warning).not.toHaveBeenCalled();
  });

  it('without a listener, warns once per receiver, naming the fix', async () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const receiver = new WebhookReceiver({ secret: SECRET });
    const url = await serve(jsonParser(receiver.nodeHandler));
    expect([(await post(url)).status, (await post(url)).status]).toEqual([500, 500]);
    expect(warning).toHaveBeenCalledTimes(1);
    expect(String(warning.mock.calls[0]?.[0])).toMatch(
      /^Body already read by a body parser: mount the receiver before it, or pass the exact bytes/,
    );
    // Another receiver behind the same mistake warns for itself.
    const other = new WebhookReceiver({ secret: SECRET });
    expect((await post(await serve(jsonParser(other.nodeHandler)))).status).toBe(500);
    expect(warning).toHaveBeenCalledTimes(2);
  });

  it('fetchHandler reports a Request already read the same way', async () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const receiver = new WebhookReceiver({ secret: SECRET });
    const request = new Request('http://127.0.0.1/hooks', {
      method: 'POST',
      headers: signed(),
      body: body(),
    });
    await request.json();
    expect((await receiver.fetchHandler(request)).status).toBe(500);
    expect(String(warning.mock.calls[0]?.[0])).toMatch(/already read.*clone\(\)/);
    const reported: unknown[] = [];
    receiver.on('body_already_read', (info) => void reported.push(info));
    await receiver.fetchHandler(request);
    expect(reported).toEqual([{ status: 500, message: expect.stringMatching(/clone\(\)/) }]);
    expect(warning).toHaveBeenCalledTimes(1);
  });
});
