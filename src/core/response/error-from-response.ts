import {
  APIError,
  type APIErrorInit,
  type ApiVersion,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../errors.js';
import { clip } from '../zod-issues.js';
import { redactor } from './redact.js';

/** The class of a status that has one of its own (400, 401, 403, 404, 429; 500 for every 5xx). */
const CLASS_BY_STATUS: Record<
  number,
  new (
    init: APIErrorInit & { retryAfter: number | undefined },
  ) => APIError
> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  429: RateLimitError,
  500: InternalServerError,
};

/** A non-2xx answer as the transport read it, and what the error says of the call it answers. */
export interface ErrorAnswer {
  response: Response;
  /** The body as read: all of it, or its first `cutAt` bytes. */
  text: string;
  /** Set when the body was longer than `maxResponseBytes` (this many bytes) and was read that far only. */
  cutAt: number | undefined;
  /** Every credential the client holds or held, the bearer the request carried, the request's own secrets. */
  secrets: ReadonlyArray<string | undefined>;
  /** The client's redaction expressions by secret (redact.ts), kept from one error to the next. */
  patterns: Map<string, RegExp>;
  operation: string;
  apiVersion: ApiVersion;
  /** The answer to the token request: always an `AuthenticationError`. */
  tokenRequest: boolean;
  /** Seconds from `Retry-After`, carried by `RateLimitError`. */
  retryAfter: number | undefined;
}

function stringField(value: unknown, key: string): string | undefined {
  const field = (value as Record<string, unknown> | null | undefined)?.[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/**
 * The one mapping from a non-2xx answer to an error. Reads v2 `{status, code, message}`, v1
 * `{status, error: {code, message, status_code}}` and, for the token request, RFC 6749
 * `{error, error_description}`; a non-JSON body (an HTML page from a proxy, nothing at all) keeps
 * the class of its status and a message naming the status. A 3xx is `redirect_not_followed`.
 *
 * An answer may echo the request (a proxy's error page, a debug header): every secret is replaced in
 * the error's message, `body` and `headers` (redact.ts). What the answer says is cut (with `…`) in the
 * message: a code to 100 characters, a message to 1 000, a redirect's location to 200.
 */
export function errorFromResponse(answer: ErrorAnswer): APIError {
  const { response, text, cutAt, operation, apiVersion } = answer;
  const hide = redactor(answer.secrets, answer.patterns);
  // A cut may split an echoed credential, whose first part no redaction recognises: the last 4 KiB
  // (at most half) of a cut body are left out.
  const body = hide(
    parseErrorBody(cutAt ? text.slice(0, text.length - Math.min(4096, text.length >> 1)) : text),
  );
  const headers = hide(Object.fromEntries(response.headers)) as Record<string, string>;
  const { status } = response;
  const redirect = (status >= 300 && status < 400) || response.type === 'opaqueredirect';
  const nested = (body as { error?: unknown } | null | undefined)?.error;
  let code = clip(
    stringField(body, 'code') ??
      stringField(nested, 'code') ??
      (typeof nested === 'string' ? nested : undefined) ??
      `http_${status}`,
    100,
  );
  let message = clip(
    stringField(body, 'message') ??
      stringField(nested, 'message') ??
      stringField(body, 'error_description') ??
      describeBody(status, body, cutAt),
    1000,
  );
  if (redirect) {
    const location = response.headers.get('location');
    code = 'redirect_not_followed';
    message = `the answer redirects${location === null ? '' : ` to ${clip(hide(location) as string, 200)}`}; the SDK follows no redirect, so credentials go only to the configured base URL`;
  }
  // The token request's answer is an AuthenticationError (401's class) whatever its status, and
  // every 5xx an InternalServerError (500's). Only `RateLimitError` keeps `retryAfter`.
  const ErrorClass =
    CLASS_BY_STATUS[answer.tokenRequest ? 401 : redirect ? 0 : status >= 500 ? 500 : status] ?? APIError;
  return new ErrorClass({
    status,
    code,
    message,
    headers,
    body,
    apiVersion,
    operation,
    retryAfter: answer.retryAfter,
  });
}

/** A non-2xx answer's body: parsed JSON, else its text; `undefined` when empty. */
function parseErrorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeBody(status: number, body: unknown, cutAt: number | undefined): string {
  const what = cutAt === undefined ? 'non-JSON body' : `body longer than ${cutAt} bytes, first bytes`;
  if (typeof body === 'string' && body.trim() !== '') {
    // Only the start is read: the message keeps 200 characters of it. `[^<>]`, not `[^>]`: a run of
    // `<` without `>` (a hostile body) would make the match quadratic.
    const text = body
      .slice(0, 65536)
      .replace(/<[^<>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return `HTTP ${status}, ${what}: ${clip(text, 200)}`;
  }
  return body === undefined || body === '' ? `HTTP ${status} with an empty body` : `HTTP ${status}`;
}
