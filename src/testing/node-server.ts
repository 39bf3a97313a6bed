import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse, routeOf, SandboxError } from './http.js';
import { foreignHost } from './own-host.js';

/** A running local server. */
export interface ListeningSandbox {
  /** `http://127.0.0.1:<port>` — use it as both `baseUrl` and `baseUrlV1`. */
  url: string;
  /** The port chosen (a free one when `listen()` was given none or 0). */
  port: number;
  /** The console page, when `listen()` was given `console: true`. */
  consoleUrl?: string;
  /** Stops the server; resolves once it is closed. */
  close(): Promise<void>;
}

/**
 * The request's URL on this server: only the path and query of the request line are read, so a
 * `//other:port/…` or `http://other/…` target cannot name the host that Host checks compare the
 * header against (a DNS-rebound page would pass them).
 */
function urlOf(target: string, origin: string): URL {
  const { pathname, search } = new URL(target, origin);
  return new URL(origin + pathname + search);
}

/**
 * The body as a stream that reads the socket only when the handler reads it (no chunk is pulled
 * ahead): a request refused from its headers (401, 403) is answered without reading its body, and
 * one read past its limit (413) no further.
 */
function bodyOf(message: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = message[Symbol.asyncIterator]();
  return new ReadableStream(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value as Buffer);
      },
    },
    { highWaterMark: 0 },
  );
}

function toRequest(message: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = message.method !== 'GET' && message.method !== 'HEAD';
  return new Request(urlOf(message.url ?? '/', origin), {
    method: message.method ?? 'GET',
    headers,
    // `duplex` is how undici takes a streamed request body; lib DOM's RequestInit does not name it.
    ...(hasBody ? ({ body: bodyOf(message), duplex: 'half' } as RequestInit) : {}),
  });
}

/** 403 to a request naming another host (DNS rebinding), in the shape of its path's version. */
function refuseHost(request: Request, reason: string): Response {
  return errorResponse(
    routeOf(new URL(request.url).pathname).version,
    new SandboxError(403, 'forbidden', reason),
  );
}

/** Resolves once `res` can take more, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.once('drain', done).once('close', done);
  });
}

async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = Object.fromEntries(response.headers);
  // A body still arriving was refused or cut off (401, 403, 413): closing the connection after the
  // answer is what stops reading it; kept alive, node would read and drop all of it first.
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  // An event stream never ends by itself: written as it comes, cancelled when the client leaves.
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  // Backpressure: nothing more is read from the stream until the socket has taken what it has.
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (!res.write(chunk.value)) await drained(res);
  }
  res.end();
}

/**
 * Serves `handle` with node:http on 127.0.0.1 only. node:http is imported here, inside the
 * function, so the testing entry still loads in runtimes without it.
 */
export async function listenOnLoopback(
  handle: (request: Request) => Promise<Response>,
  port = 0,
): Promise<ListeningSandbox> {
  const { createServer } = await import('node:http');
  let origin = '';
  const server = createServer((req, res) => {
    const request = toRequest(req, origin);
    const refused = foreignHost(req.headers.host, new URL(origin));
    (refused ? Promise.resolve(refuseHost(request, refused)) : handle(request))
      .then((response) => writeResponse(response, req, res))
      .catch(() => {
        res.statusCode = 500;
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  origin = `http://127.0.0.1:${actualPort}`;
  return {
    url: origin,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
