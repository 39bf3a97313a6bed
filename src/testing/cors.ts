/**
 * CORS for the sandbox's HTTP server, so a page on another local origin (a dev server on
 * localhost:5173, a test runner's browser) can call it with a browser-safe `accessToken`.
 * Off by default: a server that answers pages is not what the tests of a backend want. Never
 * every origin: with the printed default credentials, any web page the developer visits could
 * otherwise take a token, place calls and register webhooks (the class of Vite's CVE-2025-24010).
 */
import { errorResponse, routeOf, SandboxError } from './http.js';

/**
 * `true`: pages served from `localhost`, `127.0.0.1` or `[::1]`, any port; a string or a list:
 * exactly those origins (`'http://localhost:5173'`, `['https://app.example']`).
 */
export type CorsOption = boolean | string | readonly string[];

const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';
// What the SDK sends beyond the safelisted headers; a preflight that names others is echoed.
const ALLOWED_HEADERS = 'authorization, content-type';
// Retry-After, Deprecation and Sunset are not CORS-safelisted response headers: without this the
// SDK in a browser could not honour a 429's wait or warn of a deprecated version.
const EXPOSED_HEADERS = 'retry-after, deprecation, sunset';
const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a page of `origin` is a local one: http(s), on this machine's names, any port. */
function isLocalOrigin(origin: string): boolean {
  try {
    const { protocol, hostname } = new URL(origin);
    return (protocol === 'http:' || protocol === 'https:') && LOCAL_HOSTNAMES.has(hostname);
  } catch {
    return false;
  }
}

function allows(cors: true | string | readonly string[], origin: string): boolean {
  if (cors === true) return isLocalOrigin(origin);
  return typeof cors === 'string' ? origin === cors : cors.includes(origin);
}

function corsHeaders(origin: string, requestedHeaders: string | null): Record<string, string> {
  return {
    // The origin echoed, never `*`: the answer differs per origin, so caches must key on it.
    'access-control-allow-origin': origin,
    vary: 'Origin',
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': requestedHeaders ?? ALLOWED_HEADERS,
    'access-control-expose-headers': EXPOSED_HEADERS,
    'access-control-max-age': '600',
  };
}

/**
 * Wraps a sandbox handler: answers preflights itself and adds the CORS headers to the answers of
 * allowed origins. A request from a page of any other origin is refused (403) before anything is
 * done: a form post needs no preflight, and its answer being unreadable would not undo it.
 */
export function withCors(
  handle: (request: Request) => Promise<Response>,
  cors: CorsOption | undefined,
): (request: Request) => Promise<Response> {
  if (cors === undefined || cors === false) return handle;
  return async (request) => {
    const origin = request.headers.get('origin');
    if (origin === null) return handle(request);
    if (!allows(cors, origin)) {
      const { version } = routeOf(new URL(request.url).pathname);
      return errorResponse(version, new SandboxError(403, 'forbidden', `Origin ${origin} is not allowed`));
    }
    const extra = corsHeaders(origin, request.headers.get('access-control-request-headers'));
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      return new Response(null, { status: 204, headers: extra });
    }
    const response = await handle(request);
    // A lost connection (an injected drop) has no answer to mark.
    if (response.type === 'error') return response;
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) {
      if (name !== 'access-control-allow-headers' && name !== 'access-control-max-age')
        headers.set(name, value);
    }
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
