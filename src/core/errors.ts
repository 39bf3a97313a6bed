import { TelephonyError } from '../shared/telephony-error.js';

export { TelephonyError };

/** Which of the service's two API versions answered; they differ in error and pagination shape. */
export type ApiVersion = 'v1' | 'v2';

export interface APIErrorInit {
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
  body: unknown;
  apiVersion: ApiVersion;
  /** `"GET /v2/calls/recent"`: named in the message so a log line says which call failed. */
  operation: string;
}

/** The service answered with a non-2xx status. Same fields whichever error shape (v1 or v2) it sent. */
export class APIError extends TelephonyError {
  override readonly name: string = 'APIError';
  /** HTTP status code. */
  readonly status: number;
  /** Machine code from the body (`invalid_parameter`, `not_found`, …), or `http_<status>` when the body had none. */
  readonly code: string;
  /** Response headers (never request headers, so never a credential). */
  readonly headers: Record<string, string>;
  /** The parsed response body, or its text when it was not JSON. */
  readonly body: unknown;
  readonly apiVersion: ApiVersion;

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

/** 429 after retries were spent, or a `Retry-After` longer than the client is willing to wait. */
export class RateLimitError extends APIError {
  override readonly name: string = 'RateLimitError';
  /** Seconds the service asked to wait, from `Retry-After`; `undefined` when it sent none. */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit & { retryAfter: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the service failed. */
export class InternalServerError extends APIError {
  override readonly name: string = 'InternalServerError';
}

/** No HTTP answer: DNS, refused or reset connection. */
export class APIConnectionError extends TelephonyError {
  override readonly name: string = 'APIConnectionError';
}

/** One attempt ran past `timeout`. */
export class APITimeoutError extends APIConnectionError {
  override readonly name: string = 'APITimeoutError';
}

/** The caller's `AbortSignal` fired, during a request or a backoff wait. `cause` is the signal's reason. */
export class APIUserAbortError extends TelephonyError {
  override readonly name: string = 'APIUserAbortError';
}

export interface ValidationIssue {
  /** Dotted path of the offending field (`to`, `from.number`, `events.0`), `''` for the whole value. */
  path: string;
  message: string;
}

/** Bad input caught before any request was sent, or a client misconfiguration. */
export class ValidationError extends TelephonyError {
  override readonly name: string = 'ValidationError';
  readonly issues: ValidationIssue[];

  constructor(message: string, issues: ValidationIssue[]) {
    super(message);
    this.issues = issues;
  }
}

/** A 2xx answer whose body is not JSON or lacks a documented field: the SDK cannot hand it over as typed. */
export class ResponseValidationError extends TelephonyError {
  override readonly name: string = 'ResponseValidationError';
  readonly issues: ValidationIssue[];

  constructor(message: string, issues: ValidationIssue[], options?: { cause?: unknown }) {
    super(message, options);
    this.issues = issues;
  }
}
