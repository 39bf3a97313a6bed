import type { IncomingMessage, ServerResponse } from 'node:http';

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
 * `//other:port/…` or `http://other/…` target cannot name the host the console's check compares
 * the Host header against (a DNS-rebound page would pass it).
 */
function urlOf(target: string, origin: string): URL {
  const { pathname, search } = new URL(target, origin);
  return new URL(origin + pathname + search);
}

async function toRequest(message: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = message.method !== 'GET' && message.method !== 'HEAD';
  return new Request(urlOf(message.url ?? '/', origin), {
    method: message.method ?? 'GET',
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  // An event stream never ends by itself: written as it comes, cancelled when the client leaves.
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
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
    toRequest(req, origin)
      .then(handle)
      .then((response) => writeResponse(response, res))
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
