import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { refuseBadPort } from './bad-ports.js';
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
  /** Stops the server, ending requests in flight; resolves once it is closed (again at a second call). */
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

/**
 * The methods served. Any other is 405 before a `Request` is built: fetch's `Request` throws on
 * `TRACE`, `TRACK` and `CONNECT`, and a throw in node's request listener ends the process.
 */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The `Request` for `message`, aborted when the client leaves (or the server closes) before its answer. */
function toRequest(message: IncomingMessage, res: ServerResponse, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = message.method !== 'GET' && message.method !== 'HEAD';
  const left = new AbortController();
  res.once('close', () => left.abort(new DOMException('The client left', 'AbortError')));
  return new Request(urlOf(message.url ?? '/', origin), {
    method: message.method ?? 'GET',
    headers,
    signal: left.signal,
    // `duplex` is how undici takes a streamed request body; lib DOM's RequestInit does not name it.
    ...(hasBody ? ({ body: bodyOf(message), duplex: 'half' } as RequestInit) : {}),
  });
}

/** The error answer, in the shape of the version of the path the request target names (v2 if none). */
function refusal(target: string | undefined, error: SandboxError): Response {
  const pathname = /^[^?#]*/.exec(target ?? '')?.[0] ?? '';
  return errorResponse(routeOf(pathname).version, error);
}

/** The answer to `req` when it is not served: 405 (method), 400 (target), 403 (host); else undefined. */
function refused(req: IncomingMessage, origin: string): Response | undefined {
  const method = req.method ?? '';
  if (!METHODS.has(method)) {
    const error = new SandboxError(405, 'invalid_parameter', `Method ${method} is not allowed`, {
      allow: [...METHODS].join(', '),
    });
    return refusal(req.url, error);
  }
  try {
    urlOf(req.url ?? '/', origin);
  } catch {
    return refusal(
      req.url,
      new SandboxError(400, 'invalid_parameter', 'The request target is not a URL path'),
    );
  }
  const host = foreignHost(req.headers.host, new URL(origin));
  return host ? refusal(req.url, new SandboxError(403, 'forbidden', host)) : undefined;
}

/** Status lines for what node's HTTP parser refuses, as node answers them when no one listens (405 added). */
const PARSER_REFUSALS: Record<string, string> = {
  HPE_INVALID_METHOD: '405 Method Not Allowed',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * A raw answer on a socket node's HTTP parser gave up on (an unknown method, a malformed request)
 * or one taken over by `CONNECT`: the connection ends, the server goes on.
 */
function endSocket(socket: Duplex, statusLine: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(`HTTP/1.1 ${statusLine}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
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
  // A fault's lost connection (`Response.error()`): no answer at all, the socket is cut.
  if (response.type === 'error') {
    req.socket.destroy();
    return;
  }
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
 * node:http, loaded when `listen()` is called. The specifier is a variable so that no build turns
 * it into a static `require("node:http")` (the CommonJS build makes one of a literal `import()`)
 * and no bundler tries to resolve it: the testing entry bundles for a browser with no setting,
 * and loads in runtimes without node:http.
 */
function nodeHttp(): Promise<typeof import('node:http')> {
  const specifier = 'node:http';
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
}

/** Serves `handle` with node:http on 127.0.0.1 only. */
export async function listenOnLoopback(
  handle: (request: Request) => Promise<Response>,
  port = 0,
): Promise<ListeningSandbox> {
  refuseBadPort(port);
  const { createServer } = await nodeHttp();
  let origin = '';
  const server = createServer((req, res) => {
    // Everything inside the chain: whatever a request holds, its failure is a 500, never a crash.
    Promise.resolve()
      .then(() => refused(req, origin) ?? handle(toRequest(req, res, origin)))
      .then((response) => writeResponse(response, req, res))
      .catch(() => {
        if (res.headersSent || res.destroyed) return void res.destroy();
        res.statusCode = 500;
        res.end();
      });
  });
  server.on('connect', (_req, socket) => endSocket(socket, '405 Method Not Allowed'));
  server.on('clientError', (error: NodeJS.ErrnoException, socket) =>
    endSocket(socket, PARSER_REFUSALS[error.code ?? ''] ?? '400 Bad Request'),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  origin = `http://127.0.0.1:${actualPort}`;
  // Once: a second close() (a test's own, then its afterEach) waits for the same one.
  let closed: Promise<void> | undefined;
  return {
    url: origin,
    port: actualPort,
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Ends requests in flight too: a hanging fault's request is aborted with its socket.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
