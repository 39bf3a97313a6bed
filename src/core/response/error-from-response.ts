import {
  APIError,
  type ApiVersion,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../errors.js';

const CLASS_BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
};

function stringField(value: unknown, key: string): string | undefined {
  const field = (value as Record<string, unknown> | null | undefined)?.[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/**
 * The one mapping from a non-2xx answer to an error. Reads v2 `{status, code, message}`, v1
 * `{status, error: {code, message, status_code}}` and, for the token request, RFC 6749
 * `{error, error_description}`; a non-JSON body (an HTML page from a proxy, nothing at all) keeps
 * the class of its status and a message naming the status.
 *
 * @param body parsed JSON, or the raw text when the body was not JSON
 * @param extra `retryAfter`: seconds from `Retry-After`, carried by `RateLimitError`;
 *   `tokenRequest`: the answer to the token request, always an `AuthenticationError`
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: Record<string, string>,
  apiVersion: ApiVersion,
  operation: string,
  extra: { retryAfter?: number | undefined; tokenRequest?: boolean } = {},
): APIError {
  const nested = (body as { error?: unknown } | null | undefined)?.error;
  const code =
    stringField(body, 'code') ??
    stringField(nested, 'code') ??
    (typeof nested === 'string' ? nested : undefined) ??
    `http_${status}`;
  const message =
    stringField(body, 'message') ??
    stringField(nested, 'message') ??
    stringField(body, 'error_description') ??
    describeBody(status, body);
  const init = { status, code, message, headers, body, apiVersion, operation };
  if (extra.tokenRequest) return new AuthenticationError(init);
  if (status === 429) return new RateLimitError({ ...init, retryAfter: extra.retryAfter });
  if (status >= 500) return new InternalServerError(init);
  const ErrorClass = CLASS_BY_STATUS[status] ?? APIError;
  return new ErrorClass(init);
}

function describeBody(status: number, body: unknown): string {
  if (typeof body === 'string' && body.trim() !== '') {
    const text = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return `HTTP ${status}, non-JSON body: ${text.slice(0, 200)}`;
  }
  return body === undefined || body === '' ? `HTTP ${status} with an empty body` : `HTTP ${status}`;
}
