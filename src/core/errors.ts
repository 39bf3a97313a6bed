import type { CallOutcome } from '../shared/telephony-error.js';
import { TelephonyError } from '../shared/telephony-error.js';
import { ValidationError, type ValidationIssue } from '../shared/validation-error.js';

export type { AttemptRecord, CallOutcome } from '../shared/telephony-error.js';
export { TelephonyError };

/** Which of the service's two API versions answered; they differ in error and pagination shape. */
export type ApiVersion = 'v1' | 'v2';

/** What an {@link APIError} is built from; the SDK builds it from the answer. See the fields of `APIError`. */
export interface APIErrorInit {
  /** HTTP status code of the answer. */
  status: number;
  /** Machine code from the body, or `http_<status>` when the body had none. */
  code: string;
  /** Human-readable message from the body (or a description of a non-JSON body). */
  message: string;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** The parsed response body, or its text when it was not JSON. */
  body: unknown;
  /** Which API version answered. */
  apiVersion: ApiVersion;
  /** `"GET /v2/calls/recent"`: named in the message so a log line says which call failed. */
  operation: string;
}

/**
 * The service answered with a non-2xx status (after any retries). Same fields whichever error shape
 * (v1 or v2) it sent; `message` names the operation, status and code (`GET /v2/calls/recent → 404
 * not_found: …`). Subclasses by status: {@link BadRequestError}, {@link AuthenticationError},
 * {@link PermissionDeniedError}, {@link NotFoundError}, {@link RateLimitError},
 * {@link InternalServerError}; other statuses are a plain `APIError`.
 *
 * @example
 * ```ts
 * try {
 *   await client.calls.get('call_123');
 * } catch (error) {
 *   if (error instanceof NotFoundError) return null;
 *   if (error instanceof APIError) console.error(error.status, error.code, error.apiVersion);
 *   throw error;
 * }
 * ```
 */
export class APIError extends TelephonyError {
  override readonly name: string = 'APIError';
  /** HTTP status code. */
  declare readonly status: number;
  /** Machine code from the body (`invalid_parameter`, `not_found`, …), or `http_<status>` when the body had none. */
  declare readonly code: string;
  /** Response headers (never request headers); a credential the answer echoes is replaced by `[redacted]`. */
  declare readonly headers: Record<string, string>;
  /** The parsed response body, or its text when it was not JSON; an echoed credential is replaced by `[redacted]`. */
  declare readonly body: unknown;
  /** `'v2'` (calls, stats, webhooks, the token request) or `'v1'` (users): which error shape was read. */
  declare readonly apiVersion: ApiVersion;

  constructor(init: APIErrorInit) {
    super(`${init.operation} → ${init.status} ${init.code}: ${init.message}`);
    this.status = init.status;
    this.code = init.code;
    this.headers = init.headers;
    this.body = init.body;
    this.apiVersion = init.apiVersion;
  }
}

/** 400: malformed request or invalid parameter value. */
export class BadRequestError extends APIError {
  override readonly name: string = 'BadRequestError';
}

/** 401 (`unauthorized`, v1 `authentication_failed`), or a failed token request. */
export class AuthenticationError extends APIError {
  override readonly name: string = 'AuthenticationError';
}

/** 403: the credential lacks the needed scope or permission. */
export class PermissionDeniedError extends APIError {
  override readonly name: string = 'PermissionDeniedError';
}

/** 404: the resource does not exist. */
export class NotFoundError extends APIError {
  override readonly name: string = 'NotFoundError';
}

/**
 * 429 after retries were spent, or a `Retry-After` longer than the client is willing to wait. Also a
 * call refused before anything is sent because it would wait longer than `maxRetryAfter`: code
 * `'paused'` (a 429 paused the account) or `'rate_budget_exhausted'` (the `rateLimit` budget).
 */
export class RateLimitError extends APIError {
  override readonly name: string = 'RateLimitError';
  /** Seconds the service asked to wait, from `Retry-After`; `undefined` when it sent none. */
  declare readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit & { retryAfter: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the service failed (GET, PATCH and DELETE are retried first; POST never is). */
export class InternalServerError extends APIError {
  override readonly name: string = 'InternalServerError';
}

/**
 * No HTTP answer: DNS failure, refused or reset connection. `cause` is the underlying fetch error.
 * Thrown after retries are spent (POST is retried only when the connection provably never opened).
 */
export class APIConnectionError extends TelephonyError {
  override readonly name: string = 'APIConnectionError';
}

/** An attempt got no response headers within `timeout` ms (default 60 000), and retries were spent or not allowed (POST). */
export class APITimeoutError extends APIConnectionError {
  override readonly name: string = 'APITimeoutError';
}

/** An attempt (or the read of its body) that took longer than `timeout` ms. */
export const timedOut = (operation: string, timeout: number) =>
  new APITimeoutError(`${operation} timed out after ${timeout} ms`);

/** The caller's `AbortSignal` fired, during a request or a backoff wait. `cause` is the signal's reason. */
export class APIUserAbortError extends TelephonyError {
  override readonly name: string = 'APIUserAbortError';
}

// In shared/ so that telephony-sdk/webhooks refuses bad arguments with the same class.
export { ValidationError, type ValidationIssue } from '../shared/validation-error.js';

/**
 * `calls.waitFor` ran past its `timeout` without the call reaching what it waited for. `code` is
 * `'wait_timeout'`; nothing was changed on the service (only reads were made).
 */
export class WaitTimeoutError extends TelephonyError {
  override readonly name: string = 'WaitTimeoutError';
  /** `'wait_timeout'`. */
  readonly code = 'wait_timeout' as const;
  /** The `timeout` that ran out, in ms. */
  readonly timeout: number;

  constructor(message: string, timeout: number) {
    super(message);
    this.timeout = timeout;
  }
}

/**
 * A {@link ValidationError} with one issue, the one way the SDK words a single refusal:
 * `${subject}: ${message}`, the issue `{ path, message }`.
 */
export const invalid = (subject: string, path: string, message: string) =>
  new ValidationError(`${subject}: ${message}`, [{ path, message }]);

/**
 * A 2xx answer the SDK cannot hand over as typed: its body is not JSON or lacks a documented field
 * (`code` `'invalid_response'`), or it is longer than `maxResponseBytes` (`'response_too_large'`: the
 * rest of the body was not read).
 */
export class ResponseValidationError extends TelephonyError {
  override readonly name: string = 'ResponseValidationError';
  /** The service answered 2xx, so it may well have acted; what it said cannot be read. */
  override readonly outcome: CallOutcome = 'unknown';
  /** `'invalid_response'`, or `'response_too_large'` for a body longer than `maxResponseBytes`. */
  declare readonly code: 'invalid_response' | 'response_too_large';
  /** Where the answer departs from SPEC.md: `path` is the field in the response body (`data.calls.0.id`). */
  declare readonly issues: ValidationIssue[];

  constructor(
    message: string,
    issues: ValidationIssue[],
    options?: { cause?: unknown; code?: 'response_too_large' | undefined },
  ) {
    super(message, options);
    this.code = options?.code ?? 'invalid_response';
    this.issues = issues;
  }
}
