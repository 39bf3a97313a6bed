/**
 * A Cloudflare Worker: one client at module scope serving every request of the isolate, and the
 * webhook receiver behind the Worker's `fetch`. The same file is a Vercel Edge function through
 * `addEventListener('fetch', (event) => event.respondWith(worker.fetch(event.request, env)))`.
 *
 * Needs `compatibility_date` 2022-11-30 or later (or the `streams_enable_constructors` flag); no
 * other flag (docs/runtimes.md). With wrangler: `main = "examples/worker.ts"`, the base URL and
 * client id as [vars], the secrets by `wrangler secret put TELEPHONY_CLIENT_SECRET` (and
 * TELEPHONY_WEBHOOK_SECRET). `npm run test:runtimes -- workerd edge` serves this file against the
 * sandbox CLI (`npx telephony-sandbox`) and checks every route below.
 *
 * Routes: POST /calls `{"to": "+1…"}` places a call; GET /calls lists every recent call (all
 * pages); POST /webhooks is the receiver (register `https://<worker>/webhooks` with the same secret);
 * GET /events shows the last events this isolate verified.
 */
import { TelephonyClient, TelephonyError } from 'telephony-sdk';
import { WebhookReceiver } from 'telephony-sdk/webhooks';

export interface Env {
  TELEPHONY_BASE_URL: string;
  TELEPHONY_CLIENT_ID: string;
  TELEPHONY_CLIENT_SECRET: string;
  TELEPHONY_WEBHOOK_SECRET: string;
}

// Module scope: made by the first request (bindings come with it), reused by every later one. Its
// token is renewed in the background as it nears expiry; a renewal cut off when its request ended
// is started again by the next call (API.md, Client).
let client: TelephonyClient | undefined;
let receiver: WebhookReceiver | undefined;
/** The last events verified here. A demo: an isolate's memory is not shared; use a Queue, KV or D1. */
const recent: Array<{ id: string; type: string }> = [];

function clientFor(env: Env): TelephonyClient {
  client ??= new TelephonyClient({
    baseUrl: env.TELEPHONY_BASE_URL,
    clientId: env.TELEPHONY_CLIENT_ID,
    clientSecret: env.TELEPHONY_CLIENT_SECRET,
  });
  return client;
}

function receiverFor(env: Env): WebhookReceiver {
  if (receiver) return receiver;
  receiver = new WebhookReceiver({ secret: env.TELEPHONY_WEBHOOK_SECRET });
  receiver.on('*', (event) => {
    if (recent.push({ id: event.id, type: event.type }) > 50) recent.shift();
  });
  return receiver;
}

async function route(request: Request, env: Env): Promise<Response> {
  const { pathname } = new URL(request.url);
  const post = request.method === 'POST';
  if (pathname === '/webhooks' && post) return receiverFor(env).fetchHandler(request);
  if (pathname === '/events') return Response.json(recent);
  if (pathname === '/calls' && post) {
    const { to } = (await request.json()) as { to: string };
    return Response.json(await clientFor(env).calls.create({ to }), { status: 201 });
  }
  if (pathname === '/calls') {
    const ids: string[] = [];
    for await (const call of clientFor(env).calls.listRecent({ limit: 2 })) ids.push(call.id);
    return Response.json({ ids });
  }
  return new Response('not found', { status: 404 });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      return await route(request, env);
    } catch (error) {
      // The SDK's errors carry no secret: safe to show. Anything else stays in the logs.
      if (!(error instanceof TelephonyError)) throw error;
      return Response.json({ error: error.name, message: error.message }, { status: 502 });
    }
  },
};
