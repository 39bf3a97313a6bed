/**
 * The receiver recipes of docs/webhooks.md (examples/frameworks/*.ts, the code the page shows), each
 * run in a real instance of its framework on 127.0.0.1: a signed delivery is answered 200 and its
 * handler runs; a bad signature is answered 401 and runs nothing. A body parser mounted before the
 * receiver gets the 500 whose message names that framework's fix.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { signWebhook, WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp as expressApp } from '../../examples/frameworks/express.js';
import { createApp as expressJsonFirst } from '../../examples/frameworks/express-json-first.js';
import { createApp as fastifyApp } from '../../examples/frameworks/fastify.js';
import { createApp as honoApp } from '../../examples/frameworks/hono.js';
import { createApp as koaApp } from '../../examples/frameworks/koa.js';
import { createApp as nestApp } from '../../examples/frameworks/nest.js';

const SECRET = 'whsec_frameworks';
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A receiver that records the ids its handler ran for. */
function receiver() {
  const receiver = new WebhookReceiver({ secret: SECRET });
  const ran: string[] = [];
  receiver.on('call.incoming', (event) => {
    ran.push(event.id);
  });
  return { receiver, ran };
}

/** Once `server` (started on 127.0.0.1 port 0) listens, the receiver route's URL. */
async function listen(server: Server): Promise<string> {
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  if (!server.listening) await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

let next = 0;
/** POSTs a call.incoming delivery signed with `secret`; resolves with the status, the body and the event id. */
async function deliver(url: string, secret = SECRET) {
  const id = `evt_fw_${++next}`;
  const body = JSON.stringify({
    id,
    type: 'call.incoming',
    created_at: new Date().toISOString(),
    data: { call: { id: 'call_1', from: { number: '+15550001111' }, to: { number: '+15550002222' } } },
  });
  const signature = await signWebhook(body, secret, { timestamp: Math.floor(Date.now() / 1000) });
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-signature': signature },
    body,
  });
  return { status: res.status, text: await res.text(), id };
}

/** Checks a recipe: 200 and the handler ran for a signed delivery; 401 and nothing ran for a bad signature. */
async function expectRecipe(url: string, ran: string[]) {
  const good = await deliver(url);
  const bad = await deliver(url, 'whsec_wrong');
  expect([good.status, bad.status]).toEqual([200, 401]);
  expect(ran).toEqual([good.id]);
}

describe('receiver recipes in real framework instances', () => {
  it('Express, the receiver mounted before express.json()', async () => {
    const { receiver: r, ran } = receiver();
    await expectRecipe(await listen(expressApp(r).listen(0, '127.0.0.1')), ran);
  });

  it('Express, express.json() mounted first and skipping the receiver route', async () => {
    const { receiver: r, ran } = receiver();
    await expectRecipe(await listen(expressJsonFirst(r).listen(0, '127.0.0.1')), ran);
  });

  it('Fastify, a Buffer parser in the receiver plugin and handle()', async () => {
    const { receiver: r, ran } = receiver();
    const app = fastifyApp(r);
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/webhooks`;
    await expectRecipe(url, ran);
  });

  it('Koa, ctx.respond = false and nodeHandler', async () => {
    const { receiver: r, ran } = receiver();
    await expectRecipe(await listen(koaApp(r).listen(0, '127.0.0.1')), ran);
  });

  it('Hono on @hono/node-server, fetchHandler', async () => {
    const { receiver: r, ran } = receiver();
    const server = serve({ fetch: honoApp(r).fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await expectRecipe(await listen(server), ran);
  });
});

describe('a body parser before the receiver: the 500 names the fix for the framework', () => {
  it('Express (and NestJS on it): express.raw and rawBody: true', async () => {
    const { receiver: r, ran } = receiver();
    const app = express();
    app.use(express.json());
    app.post('/webhooks', r.nodeHandler);
    const answer = await deliver(await listen(app.listen(0, '127.0.0.1')));
    expect(answer.status).toBe(500);
    expect(answer.text).toMatch(/express\.raw\(\{ type: 'application\/json' \}\).*NestJS.*rawBody: true/);
    expect(ran).toEqual([]);
  });

  it("Fastify: its JSON parser read it, parseAs: 'buffer' and handle()", async () => {
    const { receiver: r } = receiver();
    const app = Fastify();
    app.post('/webhooks', (request, reply) => {
      reply.hijack();
      r.nodeHandler(request.raw, reply.raw);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const answer = await deliver(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/webhooks`);
    expect(answer.status).toBe(500);
    expect(answer.text).toMatch(
      /^Body already read by Fastify's JSON parser.*parseAs: 'buffer'.*receiver\.handle/,
    );
  });

  it('Koa: mount the receiver first with ctx.respond = false', async () => {
    const { receiver: r } = receiver();
    const app = new Koa();
    // What a body parser does: read the stream to its end first.
    app.use(async (ctx, next) => {
      for await (const _chunk of ctx.req);
      await next();
    });
    app.use((ctx) => {
      ctx.respond = false;
      r.nodeHandler(ctx.req, ctx.res);
    });
    const answer = await deliver(await listen(app.listen(0, '127.0.0.1')));
    expect(answer.status).toBe(500);
    expect(answer.text).toMatch(/mount the receiver before it, set ctx\.respond = false/);
  });
});

describe('NestJS', () => {
  it('rawBody: true and handle()', async () => {
    const { receiver: r, ran } = receiver();
    const app = await nestApp(r);
    app.useLogger(false);
    await app.listen(0, '127.0.0.1');
    closers.push(() => app.close());
    await expectRecipe(await listen(app.getHttpServer()), ran);
  });
});
