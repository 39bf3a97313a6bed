/** Which wire generation a path belongs to; it picks the error and pagination shapes. */
export type ApiVersion = 'v1' | 'v2';

/** The machine codes of SPEC.md's Errors table. */
export type ErrorCode =
  | 'invalid_parameter'
  | 'unauthorized'
  | 'authentication_failed'
  | 'forbidden'
  | 'not_found'
  | 'rate_limit_exceeded'
  | 'server_error'
  // Token endpoint only: a refused scope (RFC 6749, 5.2; SPEC.md names no code for it).
  | 'invalid_scope';

/** A failure that a route throws; the router renders it in the shape of the path's version. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new SandboxError(400, 'invalid_parameter', message);
export const notFound = (message: string) => new SandboxError(404, 'not_found', message);

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** `{status:'success', data, ...extra}` — v1 lists put `pagination` beside `data` through `extra`. */
export const success = (data: unknown, extra: Record<string, unknown> = {}) =>
  json({ status: 'success', data, ...extra });

/** The error body of SPEC.md: v2 flat `{status, code, message}`, v1 nested `{status, error:{…}}`. */
export function errorResponse(version: ApiVersion, error: SandboxError): Response {
  const body =
    version === 'v2'
      ? { status: 'error', code: error.code, message: error.message }
      : { status: 'error', error: { code: error.code, message: error.message, status_code: error.status } };
  return json(body, error.status, error.headers);
}

/**
 * Where a path's answers come from: its version (`v1` under /v1, `v2` for anything else, the
 * console included) and its part after /v1 or /v2. Only the part from /v1 or /v2 on counts, so any
 * base URL prefix works.
 */
export function routeOf(pathname: string): { version: ApiVersion; path: string } {
  const found = /\/(v1|v2)(\/.*)$/.exec(pathname);
  return { version: found?.[1] === 'v1' ? 'v1' : 'v2', path: found?.[2] ?? '' };
}

/** The path from `/v1` or `/v2` on (`/v2/calls`), what fault paths name; other paths as they are. */
export function apiPathOf(pathname: string): string {
  const { version, path } = routeOf(pathname);
  return path === '' ? pathname : `/${version}${path}`;
}

/** The largest request body the sandbox reads: 1 MiB. SPEC.md names no size; past it the answer is 413. */
export const MAX_BODY_BYTES = 1_048_576;

const tooLarge = () =>
  new SandboxError(413, 'invalid_parameter', `The request body is larger than ${MAX_BODY_BYTES} bytes`);

/**
 * The body as text, read only as far as {@link MAX_BODY_BYTES}: a larger one is refused from its
 * `Content-Length` before any of it is read, or as soon as it has sent more (chunked), and the rest
 * is never read. The router runs a route, which reads its body, only once the credential is
 * accepted; the token request, whose credential is its form, is the one body read before that.
 */
export async function readBody(request: Request): Promise<string> {
  if (Number(request.headers.get('content-length')) > MAX_BODY_BYTES) throw tooLarge();
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}

/** Parses a JSON object body; anything else is `invalid_parameter`. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await readBody(request);
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('The request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('The request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
