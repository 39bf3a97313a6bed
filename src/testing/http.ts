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

/** Parses a JSON object body; anything else is `invalid_parameter`. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
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
