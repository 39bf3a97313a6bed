import { createServer, type Server } from 'node:http';
import { type DedupStore, WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { body as fixture, header, incoming, SECRET } from './helpers.js';

// API.md, Webhooks: every non-2xx answer of the receiver carries `{ "error": "<reason>" }`, written
// by both adapters from handle()'s result; a 2xx has no body. handle() caps headers at 16 KiB.

const raw = (id = 'evt_1') => fixture({ ...incoming, id, created_at: new Date().toISOString() });
const signed = (payload: string) => ({
  'content-type': 'application/json',
  'service-signature': header(payload, SECRET, Math.floor(Date.now() / 1000)),
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The receiver behind node:http on 127.0.0.1, and the same receiver's fetchHandler. */
async function both(receiver: WebhookReceiver) {
  const server = createServer(receiver.nodeHandler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
  return [
    (init: RequestInit) => fetch(url, init),
    (init: RequestInit) => receiver.fetchHandler(new Request(url, init)),
  ] as const;
}

/** Status, content type and body of an answer. */
async function read(response: Response) {
  return [response.status, response.headers.get('content-type'), await response.text()];
}
const json = (error: string) => JSON.stringify({ error });

describe('the JSON reason of every non-2xx answer, from both adapters', () => {
  it('names verification reasons, method_not_allowed and payload_too_large; a 200 has no body', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET, maxBodyBytes: 4096 });
    receiver.on('call.incoming', () => {});
    for (const send of await both(receiver)) {
      const good = raw(`evt_${Math.random()}`);
      expect(await read(await send({ method: 'POST', headers: signed(good), body: good }))).toEqual([
        200,
        null,
        '',
      ]);
      const wrong = {
        ...signed(good),
        'service-signature': header(good, 'whsec_other', Math.floor(Date.now() / 1000)),
      };
      expect(await read(await send({ method: 'POST', headers: wrong, body: good }))).toEqual([
        401,
        'application/json',
        json('signature_mismatch'),
      ]);
      expect(await read(await send({ method: 'POST', body: good }))).toEqual([
        400,
        'application/json',
        json('missing_header'),
      ]);
      const get = await send({ method: 'GET' });
      expect([...(await read(get)), get.headers.get('allow')]).toEqual([
        405,
        'application/json',
        json('method_not_allowed'),
        'POST',
      ]);
      const big = 'x'.repeat(5000);
      expect(await read(await send({ method: 'POST', headers: signed(big), body: big }))).toEqual([
        413,
        'application/json',
        json('payload_too_large'),
      ]);
    }
  });

  it('names handler_failed, store_error and in_progress', async () => {
    const failing = new WebhookReceiver({ secret: SECRET });
    failing.on('call.incoming', () => {
      throw new Error('db down');
    });
    const broken: DedupStore = {
      has: () => Promise.reject(new Error('store down')),
      add: () => {},
    };
    const storeless = new WebhookReceiver({ secret: SECRET, store: broken });
    const [failingNode, failingFetch] = await both(failing);
    const [storeNode, storeFetch] = await both(storeless);
    const payload = raw();
    const init = () => ({ method: 'POST', headers: signed(payload), body: payload });
    for (const send of [failingNode, failingFetch])
      expect(await read(await send(init()))).toEqual([500, 'application/json', json('handler_failed')]);
    for (const send of [storeNode, storeFetch])
      expect(await read(await send(init()))).toEqual([500, 'application/json', json('store_error')]);
    // A second receiver holding the claim through a shared store: the other answers in_progress.
    let finish = () => {};
    const claims = new Set<string>();
    const store: DedupStore = {
      has: () => false,
      add: () => {},
      claim: (id) => !claims.has(id) && Boolean(claims.add(id)),
    };
    const a = new WebhookReceiver({ secret: SECRET, store });
    const b = new WebhookReceiver({ secret: SECRET, store });
    a.on('call.incoming', () => new Promise<void>((resolve) => (finish = resolve)));
    const [bNode, bFetch] = await both(b);
    const pending = a.handle({ body: payload, headers: signed(payload) });
    for (const send of [bNode, bFetch])
      expect(await read(await send(init()))).toEqual([409, 'application/json', json('in_progress')]);
    finish();
    expect((await pending).status).toBe(200);
  });
});

describe('handle() caps headers like node:http (16 KiB of names and values)', () => {
  it('answers 431 headers_too_large past it, before verifying; at the cap it verifies', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET });
    let runs = 0;
    receiver.on('call.incoming', () => void runs++);
    const payload = raw();
    const headers = signed(payload);
    const used = Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
    const filler = (extra: number) => ({ ...headers, 'x-filler': 'f'.repeat(16 * 1024 - used - 8 + extra) });
    expect(await receiver.handle({ body: payload, headers: filler(1) })).toEqual({
      status: 431,
      reason: 'headers_too_large',
      body: '{"error":"headers_too_large"}',
    });
    expect(runs).toBe(0);
    const plain = await receiver.handle({ body: payload, headers: new Headers(filler(0)) });
    expect(plain.status).toBe(200);
    expect(runs).toBe(1);
    const stuffed = new Headers(headers);
    stuffed.set('service-signature', `${headers['service-signature']}${',v1='.padEnd(68, '0').repeat(300)}`);
    const answer = await receiver.fetchHandler(
      new Request('http://127.0.0.1/hooks', { method: 'POST', headers: stuffed, body: payload }),
    );
    expect([answer.status, await answer.text()]).toEqual([431, json('headers_too_large')]);
  });
});
