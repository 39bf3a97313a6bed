/**
 * The retry policy, pure: what one attempt produced in, what to do next out. The loop that acts on it
 * is call.ts; nothing else decides or influences a retry.
 *
 * - GET, PUT, PATCH, DELETE and the token request are retried on 408, 429 and 5xx answers, on
 *   per-attempt timeouts and on connection failures: repeating them cannot do anything twice.
 * - POST (placing a call, a transfer, creating a user or a webhook, and POSTs through
 *   `client.request`) is retried ONLY on 429 (the service refused it before acting) and on a
 *   connection failure that provably happened before any byte was sent: the fetch error's `cause.code`
 *   (or every code of an `AggregateError` cause) is one of ECONNREFUSED, ENOTFOUND, EAI_AGAIN.
 *   A 5xx, a timeout or a reset after sending may mean the call was already placed; the service
 *   has no idempotency key, so retrying could ring a phone twice. Those fail at once.
 * - Backoff: equal jitter, `min(8 s, 0.5 s · 2^retry)` halved plus a random half.
 * - `Retry-After` (seconds or HTTP-date) on 429/503 is waited exactly. Longer than `maxRetryAfter`
 *   seconds: no wait, the call fails at once (`RateLimitError` with `retryAfter` for a 429).
 * - A 401 answered to a refreshable credential is repeated once with a new token, at once; that
 *   repeat does not count as a retry.
 */
import { parseImfFixdate } from '../response/http-date.js';

/** What one attempt produced, as the loop saw it. */
export type Outcome =
  | { kind: 'answer'; status: number; retryAfterMs: number | undefined }
  | { kind: 'timeout' }
  | { kind: 'connection'; neverSent: boolean };

/** Where the call stands when an attempt failed. */
export interface AttemptState {
  /** Retries already made (0 after the first attempt); the 401 repeat is not one. */
  retries: number;
  /** Whether the 401 repeat was made already, or cannot be (no refreshable credential). */
  repeated401: boolean;
}

/** The limits the policy reads, from the client's options under the call's own. */
export interface PolicyOptions {
  maxRetries: number;
  maxRetryAfterMs: number;
  /** False for POST (except the token request). */
  idempotent: boolean;
}

/** Why a call waits and tries again, as the `'retry'` event names it. */
export type RetryReason = `status ${number}` | 'timeout' | 'connection';

/** Give up, repeat at once with a new token (after a 401), or wait `ms` and try again. */
export type Decision =
  | { action: 'give_up' }
  | { action: 'repeat_401' }
  | { action: 'wait'; ms: number; reason: RetryReason };

const GIVE_UP: Decision = { action: 'give_up' };
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The rules above.
 * @param random a number in [0, 1), for the jitter
 */
export function decide(
  outcome: Outcome,
  attempt: AttemptState,
  options: PolicyOptions,
  random: number = Math.random(),
): Decision {
  if (outcome.kind === 'answer' && outcome.status === 401 && !attempt.repeated401)
    return { action: 'repeat_401' };
  if (attempt.retries >= options.maxRetries) return GIVE_UP;
  let reason: RetryReason;
  if (outcome.kind === 'answer') {
    const { status } = outcome;
    const retryable = status === 429 || (options.idempotent && (status === 408 || status >= 500));
    if (!retryable) return GIVE_UP;
    reason = `status ${status}`;
    if (outcome.retryAfterMs !== undefined && (status === 429 || status === 503)) {
      if (outcome.retryAfterMs > options.maxRetryAfterMs) return GIVE_UP;
      return { action: 'wait', ms: outcome.retryAfterMs, reason };
    }
  } else if (outcome.kind === 'timeout') {
    if (!options.idempotent) return GIVE_UP;
    reason = 'timeout';
  } else {
    if (!options.idempotent && !outcome.neverSent) return GIVE_UP;
    reason = 'connection';
  }
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt.retries);
  return { action: 'wait', ms: Math.round(ceiling / 2 + (random * ceiling) / 2), reason };
}

/**
 * Whether the attempt may have reached the service and acted, its answer lost: a 429 was refused
 * before anything was done, and a connection that never opened sent nothing.
 */
export function mayHaveActed(outcome: Outcome): boolean {
  if (outcome.kind === 'timeout') return true;
  if (outcome.kind === 'connection') return !outcome.neverSent;
  return outcome.status !== 429;
}

/**
 * `Retry-After` as milliseconds from `now`: delta-seconds (digits; a decimal such as `1.5` is read as
 * seconds too) or an IMF-fixdate (a past date is 0); `undefined` when absent or in any other form.
 */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = parseImfFixdate(trimmed);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/**
 * The system error codes behind a fetch failure (`ECONNREFUSED`, `ENOTFOUND` …), from its `cause`,
 * or from each error of an `AggregateError` cause (one per address tried).
 */
export function failureCodes(error: unknown): string[] {
  const cause = (error as { cause?: unknown } | null)?.cause as
    | { code?: unknown; errors?: unknown }
    | undefined
    | null;
  if (cause === undefined || cause === null) return [];
  const errors: Array<{ code?: unknown } | null> = Array.isArray(cause.errors) ? cause.errors : [];
  const codes = errors.length > 0 ? errors.map((e) => e?.code) : [cause.code];
  return codes.every((code) => typeof code === 'string') ? [...new Set(codes as string[])] : [];
}

/** True when a fetch failure's codes show the connection was never made, so nothing reached the service. */
export function provablyNeverSent(codes: readonly string[]): boolean {
  return codes.length > 0 && codes.every((code) => NEVER_SENT_CODES.has(code));
}
