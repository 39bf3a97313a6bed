import {
  APIConnectionError,
  APIError,
  type APIErrorInit,
  APITimeoutError,
  type APIUserAbortError,
  type ApiVersion,
  type AttemptRecord,
  AuthenticationError,
  BadRequestError,
  type CallOutcome,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type TelephonyError,
  timedOut,
} from '../errors.js';
import { escapeControls } from '../escape-controls.js';
import { clip } from '../zod-issues.js';
import { redactor } from './redact.js';

/** How the call's last attempt ended, as the transport saw it. */
export type Failure =
  /** A non-2xx answer, its body read up to `maxResponseBytes` (`cutAt` set when it was longer). */
  | {
      kind: 'answer';
      response: Response;
      text: string;
      cutAt: number | undefined;
      retryAfterMs: number | undefined;
    }
  /** No answer's headers within the attempt's `timeout`. */
  | { kind: 'timeout' }
  /** No HTTP answer: `codes` are the system codes behind it, `neverSent` when they prove nothing left. */
  | { kind: 'connection'; cause: unknown; codes: string[]; neverSent: boolean }
  /** The caller's signal fired; `inFlight` when an attempt was under way. */
  | { kind: 'abort'; error: APIUserAbortError; inFlight: boolean }
  /** The SDK did not send: the credential failed (with the token request's error, for a client-credentials token). */
  | { kind: 'refused'; error: TelephonyError }
  /** The SDK did not send: the rate budget or a 429's pause would hold the call longer than `maxRetryAfter`. */
  | { kind: 'held_back'; waitMs: number; reason: 'pacing' | 'paused'; maxRetryAfterMs: number }
  /** A 2xx answer the SDK could not read or parse (a stalled or too long body, bad JSON). */
  | { kind: 'unreadable'; error: TelephonyError }
  /** The call's `totalTimeout` passed (`inFlight`: during an attempt), or a wait would have passed it. */
  | { kind: 'deadline'; totalMs: number; inFlight: boolean };

/** What the error says of the call it ends. */
export interface CallFacts {
  operation: string;
  /** `https://api.example.com`: named when no answer came. */
  origin: string;
  apiVersion: ApiVersion;
  /** False for POST: an answer lost to one may hide a call placed. */
  idempotent: boolean;
  /** The answer to the token request: always an `AuthenticationError`. */
  tokenRequest: boolean;
  timeout: number;
  /** An earlier attempt may have reached the service and acted (a timeout, a reset, a 5xx). */
  mayHaveActed: boolean;
  requestId: string;
  attempts: AttemptRecord[];
  /** Every credential the client holds or held and the request's own secrets: never shown. */
  secrets: ReadonlyArray<string | undefined>;
  /** The client's redaction expressions by secret (redact.ts), kept from one error to the next. */
  patterns: Map<string, RegExp>;
}

/** The class of a status that has one of its own (5xx all `InternalServerError`; 0 for a redirect). */
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

/**
 * The one mapping from how a call ended to the error it rejects with, carrying `outcome`, `attempts`
 * and `requestId`. An error whose request may have been carried out (`'unknown'`) says so when the
 * request is not idempotent, and never invites a blind retry.
 */
export function callError(failure: Failure, call: CallFacts): TelephonyError {
  const { error, outcome } = errorAndOutcome(failure, call);
  if (outcome === 'unknown' && !call.idempotent) error.message = lostAnswer(call.operation, error.message);
  return Object.assign(error, { outcome, attempts: call.attempts, requestId: call.requestId });
}

function errorAndOutcome(failure: Failure, call: CallFacts): { error: TelephonyError; outcome: CallOutcome } {
  // Before this attempt was sent, nothing reached the service — unless an earlier attempt did.
  const unsent: CallOutcome = call.mayHaveActed ? 'unknown' : 'not_sent';
  switch (failure.kind) {
    case 'answer': {
      const { status } = failure.response;
      // A 5xx to a POST may come after the call was placed; any other answer says what was done.
      return {
        error: errorFromAnswer(failure, call),
        outcome: status >= 500 && !call.idempotent ? 'unknown' : 'rejected',
      };
    }
    case 'timeout':
      return { error: timedOut(call.operation, call.timeout), outcome: 'unknown' };
    case 'connection': {
      const { codes } = failure;
      const error = new APIConnectionError(
        `${call.operation} failed: no HTTP answer from ${call.origin}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`,
        { cause: failure.cause },
      );
      return { error, outcome: failure.neverSent ? unsent : 'unknown' };
    }
    case 'abort':
      return { error: failure.error, outcome: failure.inFlight ? 'unknown' : unsent };
    case 'refused':
      return { error: ownCopy(failure.error), outcome: unsent };
    case 'held_back':
      return { error: heldBack(failure, call), outcome: unsent };
    case 'unreadable':
      return { error: failure.error, outcome: 'unknown' };
    case 'deadline':
      return {
        error: new APITimeoutError(`${call.operation} passed its totalTimeout of ${failure.totalMs} ms`),
        outcome: failure.inFlight ? 'unknown' : unsent,
      };
  }
}

/**
 * `error` itself, or, when it ended another call already (the token request's, which every call
 * waiting for that token inherits), a copy of it (class, message, fields) whose `outcome`,
 * `attempts` and `requestId` can be this call's.
 */
function ownCopy(error: TelephonyError): TelephonyError {
  if (error.requestId === undefined) return error;
  return Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error));
}

/**
 * A call that would wait longer than its `maxRetryAfter` fails at once, as a 429 would: `paused` when
 * a 429 paused the account, `rate_budget_exhausted` when the `rateLimit` budget is spent.
 */
function heldBack(failure: Extract<Failure, { kind: 'held_back' }>, call: CallFacts): RateLimitError {
  const seconds = Math.ceil(failure.waitMs / 1000);
  const paused = failure.reason === 'paused';
  return new RateLimitError({
    status: 429,
    code: paused ? 'paused' : 'rate_budget_exhausted',
    message: `${paused ? 'a 429 paused the account' : 'the rate budget (rateLimit) is spent'} for ${seconds} s more, longer than maxRetryAfter (${failure.maxRetryAfterMs / 1000} s); nothing was sent`,
    headers: {},
    body: undefined,
    apiVersion: call.apiVersion,
    operation: call.operation,
    retryAfter: seconds,
  });
}

/** The message of an error whose request may have been carried out: what is known, and to check. */
function lostAnswer(operation: string, message: string): string {
  const what = operation === 'POST /v2/calls' ? 'placed this call' : 'carried out this request';
  const detail = message.startsWith(operation)
    ? message.slice(operation.length).replace(/^:? /, '')
    : message;
  return `${operation}: the service may have ${what}; its answer was lost (${detail}). Check before retrying.`;
}

function stringField(value: unknown, key: string): string | undefined {
  const field = (value as Record<string, unknown> | null | undefined)?.[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/** What the message shows of the answer's own words: cut to `limit`, control characters escaped. */
const shown = (text: string, limit: number) => escapeControls(clip(text, limit));

/**
 * A non-2xx answer as an error. Reads v2 `{status, code, message}`, v1
 * `{status, error: {code, message, status_code}}` and, for the token request, RFC 6749
 * `{error, error_description}`; a non-JSON body (an HTML page from a proxy, nothing at all) keeps
 * the class of its status and a message naming the status. A 3xx is `redirect_not_followed`.
 *
 * An answer may echo the request (a proxy's error page, a debug header): every secret is replaced in
 * the error's message, `body` and `headers` (redact.ts). What the answer says is cut (with `…`) in the
 * message: a code to 100 characters, a message to 1 000, a redirect's location to 200.
 */
function errorFromAnswer(answer: Extract<Failure, { kind: 'answer' }>, call: CallFacts): APIError {
  const { response, text, cutAt } = answer;
  const hide = redactor(call.secrets, call.patterns);
  // A cut may split an echoed credential, whose first part no redaction recognises: the last 4 KiB
  // (at most half) of a cut body are left out.
  const body = hide(
    parseErrorBody(cutAt ? text.slice(0, text.length - Math.min(4096, text.length >> 1)) : text),
  );
  const headers = hide(Object.fromEntries(response.headers)) as Record<string, string>;
  const { status } = response;
  const redirect = (status >= 300 && status < 400) || response.type === 'opaqueredirect';
  const nested = (body as { error?: unknown } | null | undefined)?.error;
  let code = shown(
    stringField(body, 'code') ??
      stringField(nested, 'code') ??
      (typeof nested === 'string' ? nested : undefined) ??
      `http_${status}`,
    100,
  );
  let message = shown(
    stringField(body, 'message') ??
      stringField(nested, 'message') ??
      stringField(body, 'error_description') ??
      describeBody(status, body, cutAt),
    1000,
  );
  if (redirect) {
    const location = response.headers.get('location');
    code = 'redirect_not_followed';
    message = `the answer redirects${location === null ? '' : ` to ${shown(hide(location) as string, 200)}`}; the SDK follows no redirect, so credentials go only to the configured base URL`;
  }
  // The token request's answer is an AuthenticationError (401's class) whatever its status, and
  // every 5xx an InternalServerError (500's). Only `RateLimitError` keeps `retryAfter`.
  const ErrorClass =
    CLASS_BY_STATUS[call.tokenRequest ? 401 : redirect ? 0 : status >= 500 ? 500 : status] ?? APIError;
  const { retryAfterMs } = answer;
  return new ErrorClass({
    status,
    code,
    message,
    headers,
    body,
    apiVersion: call.apiVersion,
    operation: call.operation,
    retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
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
