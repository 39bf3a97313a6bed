/**
 * CORS for the sandbox's HTTP server, so a page on another local origin (a dev server on
 * localhost:5173, a test runner's browser) can call it with a browser-safe `accessToken`.
 * Off by default: a server that answers every origin is not what the tests of a backend want.
 */

/** `true`: any origin (`*`); a string: that one origin only (`http://localhost:5173`). */
export type CorsOption = boolean | string;

const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';
// What the SDK sends beyond the safelisted headers; a preflight that names others is echoed.
const ALLOWED_HEADERS = 'authorization, content-type';
// Retry-After, Deprecation and Sunset are not CORS-safelisted response headers: without this the
// SDK in a browser could not honour a 429's wait or warn of a deprecated version.
const EXPOSED_HEADERS = 'retry-after, deprecation, sunset';

function corsHeaders(cors: string | true, requestedHeaders: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': cors === true ? '*' : cors,
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': requestedHeaders ?? ALLOWED_HEADERS,
    'access-control-expose-headers': EXPOSED_HEADERS,
    'access-control-max-age': '600',
  };
  if (cors !== true) headers.vary = 'Origin';
  return headers;
}

/** Wraps a sandbox handler: answers preflights itself and adds the CORS headers to every answer. */
export function withCors(
  handle: (request: Request) => Promise<Response>,
  cors: CorsOption | undefined,
): (request: Request) => Promise<Response> {
  if (cors === undefined || cors === false) return handle;
  return async (request) => {
    const requested = request.headers.get('access-control-request-headers');
    const extra = corsHeaders(cors, requested);
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      return new Response(null, { status: 204, headers: extra });
    }
    const response = await handle(request);
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) {
      if (name !== 'access-control-allow-headers' && name !== 'access-control-max-age')
        headers.set(name, value);
    }
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
