import { errorResponse, json, SandboxError } from '../http.js';
import { foreignHost, ownHosts } from '../own-host.js';
import { publicRateReport } from '../rate-report.js';
import { runAction } from './actions.js';
import { consoleAssets } from './assets.js';
import { type ConsoleWorld, consoleSnapshot, faultList, statsByDay, webhookList } from './world.js';

/** Where the console is served: outside /v1, /v2 and their /oauth, so no API path can collide. */
export const CONSOLE_PATH = '/_console';

type Handler = (request: Request) => Promise<Response>;

const encoder = new TextEncoder();

/**
 * Any web page the developer opens could post to 127.0.0.1 and drive the sandbox: only the
 * sandbox's own origin may, and only through its own host name (a DNS-rebound name is refused).
 */
function refusal(request: Request, url: URL): string | undefined {
  const host = foreignHost(request.headers.get('host'), url);
  if (host) return host;
  const origin = request.headers.get('origin');
  if (origin !== null && !ownHosts(url).some((allowed) => origin === `http://${allowed}`)) {
    return 'Requests from another origin may not use the console';
  }
  return undefined;
}

/** How many bytes of events may wait for a page that reads slowly before it is sent a fresh snapshot instead. */
const STREAM_QUEUE_BYTES = 256 * 1024;

/**
 * Server-sent events: a `snapshot` first, then an `activity` per record, `stats` after each call
 * change, `webhooks` after each registration or removal and `faults` after each fault injected,
 * hit or cleared. Backpressure: once a page that reads
 * slowly has `STREAM_QUEUE_BYTES` waiting, later records are dropped, not queued without bound,
 * and when it has caught up it gets one fresh `snapshot` (the server's bounded history) instead.
 */
function eventStream(world: ConsoleWorld): Response {
  let stop = () => {};
  let behind = false;
  const message = (event: string, data: unknown) =>
    encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(message('snapshot', consoleSnapshot(world)));
        const send = (event: string, data: () => unknown) => {
          behind ||= (controller.desiredSize ?? 0) <= 0;
          if (!behind) controller.enqueue(message(event, data()));
        };
        const stopActivity = world.activity.subscribe((record) => {
          send('activity', () => ({ record, now: world.clock.now() }));
          if (record.kind === 'call') send('stats', () => statsByDay(world));
        });
        const stopWebhooks = world.webhooks.subscribe(() => send('webhooks', () => webhookList(world)));
        const stopFaults = world.faults.subscribe(() => send('faults', () => faultList(world)));
        stop = () => {
          stopActivity();
          stopWebhooks();
          stopFaults();
        };
      },
      pull(controller) {
        if (!behind) return;
        behind = false;
        controller.enqueue(message('snapshot', consoleSnapshot(world)));
      },
      cancel: () => stop(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_QUEUE_BYTES }),
  );
  return new Response(stream, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' },
  });
}

async function asset(kind: 'html' | 'js' | 'css'): Promise<Response> {
  const types = { html: 'text/html', js: 'text/javascript', css: 'text/css' };
  return new Response((await consoleAssets())[kind], {
    headers: {
      'content-type': `${types[kind]}; charset=utf-8`,
      'cache-control': 'no-store',
      // A page on another origin could frame the console and have the developer click in it.
      'content-security-policy': "frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    },
  });
}

async function answer(world: ConsoleWorld, request: Request, url: URL): Promise<Response> {
  const refused = refusal(request, url);
  if (refused) throw new SandboxError(403, 'forbidden', refused);
  const path = url.pathname.slice(CONSOLE_PATH.length);
  if (request.method === 'GET') {
    if (path === '') return new Response(null, { status: 308, headers: { location: `${CONSOLE_PATH}/` } });
    if (path === '/') return asset('html');
    if (path === '/console.js') return asset('js');
    if (path === '/console.css') return asset('css');
    if (path === '/events') return eventStream(world);
    if (path === '/rate') return json({ data: publicRateReport(world.rateReport()) });
  }
  if (path.startsWith('/api/')) {
    if (request.method !== 'POST')
      throw new SandboxError(405, 'invalid_parameter', 'Console actions are POST');
    // A cross-origin page cannot send application/json without a preflight, which is never answered.
    if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) {
      throw new SandboxError(415, 'invalid_parameter', 'Console actions take application/json');
    }
    return runAction(world, path.slice('/api/'.length), request);
  }
  throw new SandboxError(404, 'not_found', `No console page ${url.pathname}`);
}

/** Serves the console under {@link CONSOLE_PATH}; every other request goes to `next`. */
export function withConsole(world: ConsoleWorld, next: Handler): Handler {
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== CONSOLE_PATH && !url.pathname.startsWith(`${CONSOLE_PATH}/`)) return next(request);
    try {
      return await answer(world, request, url);
    } catch (error) {
      if (error instanceof SandboxError) return errorResponse('v2', error);
      return json({ status: 'error', code: 'server_error', message: 'Internal sandbox error' }, 500);
    }
  };
}
