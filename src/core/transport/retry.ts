/**
 * The retry decision, whole: what is retried, after how long, and how ky is told.
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
 * - A 401 answered to a refreshable credential is repeated once with a new token; that repeat does
 *   not count as a retry, and ky's `limit` has room for it.
 *
 * How ky asks (ky 1.14, `#calculateRetryDelay`), for every failed attempt, in this order: its
 * `limit` → its `methods` → {@link shouldRetry} → (only when that answers neither true nor false,
 * which it never does) its own timeout, status-code and Retry-After rules. So every method is in
 * `methods` and POST is refused here; `true` makes ky retry after its own delay, which is 0: the
 * wait is {@link waitBeforeRetry}, ky's `beforeRetry` hook, on the client's `Clock` — a test's fake
 * clock or the sandbox's manual clock governs it, and the `'retry'` event reports it before it starts.
 */
import { HTTPError, type RetryOptions, TimeoutError } from 'ky';
import type { Clock } from '../clock.js';
import { TelephonyError } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import { METHODS } from '../request/method.js';
import type { Exchange } from './exchange.js';
import { discard } from './read-body.js';
import { sleep } from './signals.js';

/** The retry options every call shares (`ky.create`). */
export const KY_RETRY: RetryOptions = { methods: METHODS.map((m) => m.toLowerCase()), delay: () => 0 };

/** The retry options of one call: room for the 401 repeat beyond `maxRetries`, and the decision. */
export function retryOptions(exchange: Exchange, clock: Clock): RetryOptions {
  return {
    limit: exchange.maxRetries + (exchange.credential?.refreshable ? 1 : 0),
    shouldRetry: ({ error }) => shouldRetry(exchange, error, clock),
  };
}

/** ky asks this for every failed attempt: `true` retries after {@link Exchange.wait}, `false` gives up. */
function shouldRetry(exchange: Exchange, error: Error, clock: Clock): boolean | Promise<boolean> {
  if (error instanceof TelephonyError || exchange.signal?.aborted) return false;
  const answer = error instanceof HTTPError ? error.response : undefined;
  if (answer?.status === 401) {
    // A shared token is dropped from the shared state first (a promise), so the repeat cannot read it back.
    const again = exchange.repeatAfter401();
    if (again !== false) {
      discard(answer);
      return again;
    }
  }
  const outcome = outcomeOf(error, clock.now());
  const decision = decideRetry(
    outcome,
    exchange.retries,
    exchange.maxRetries,
    exchange.idempotent,
    exchange.maxRetryAfterMs,
    Math.random(),
  );
  if (!decision.retry) return false;
  // A 429 was refused before anything was done; a connection that never opened sent nothing.
  const mayHaveArrived =
    outcome.kind === 'timeout' ||
    (outcome.kind === 'connection' ? !outcome.neverSent : outcome.status !== 429);
  exchange.retryAfter(decision.delayMs, decision.reason, mayHaveArrived);
  // The answer of an attempt that is retried is not read: free its connection.
  if (answer !== undefined) discard(answer);
  return true;
}

/** ky's `beforeRetry`: the `'retry'` event, then the wait the decision set, on the client's clock. */
export function waitBeforeRetry(
  exchange: Exchange,
  clock: Clock,
  events: ClientEmitter,
): Promise<void> | undefined {
  const { method, shownUrl: url, attempt } = exchange;
  const { delayMs, reason } = exchange.wait;
  events.emit('retry', { method, url, attempt, delayMs, reason });
  // An attempt with an answer ended its span then; one without failed with the error the SDK maps it to.
  exchange.endSpan(undefined, reason === 'timeout' ? 'APITimeoutError' : 'APIConnectionError');
  exchange.beginRetry();
  if (delayMs === 0) return;
  exchange.op?.waited('retry', delayMs);
  return sleep(clock, delayMs, exchange.signal);
}

/** What one attempt produced. */
export type Outcome =
  | { kind: 'status'; status: number; retryAfterMs: number | undefined }
  | { kind: 'timeout' }
  | { kind: 'connection'; neverSent: boolean };

/** Wait this long and try again, or give up. */
export type Decision = { retry: true; delayMs: number; reason: string } | { retry: false };

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** What a failed attempt produced, as ky threw it. */
function outcomeOf(error: Error, now: number): Outcome {
  if (error instanceof HTTPError) {
    const { status, headers } = error.response;
    return { kind: 'status', status, retryAfterMs: parseRetryAfter(headers.get('retry-after'), now) };
  }
  if (error instanceof TimeoutError) return { kind: 'timeout' };
  return { kind: 'connection', neverSent: provablyNeverSent(failureCodes(error)) };
}

/**
 * The rules above, pure.
 * @param retriesDone retries already made (0 after the first attempt)
 * @param idempotent false for POST (except the token request)
 * @param random a number in [0, 1)
 */
export function decideRetry(
  outcome: Outcome,
  retriesDone: number,
  maxRetries: number,
  idempotent: boolean,
  maxRetryAfterMs: number,
  random: number,
): Decision {
  if (retriesDone >= maxRetries) return { retry: false };
  let reason: string;
  if (outcome.kind === 'status') {
    const { status } = outcome;
    const retryable = status === 429 || (idempotent && (status === 408 || status >= 500));
    if (!retryable) return { retry: false };
    reason = `status ${status}`;
    if (outcome.retryAfterMs !== undefined && (status === 429 || status === 503)) {
      if (outcome.retryAfterMs > maxRetryAfterMs) return { retry: false };
      return { retry: true, delayMs: outcome.retryAfterMs, reason };
    }
  } else if (outcome.kind === 'timeout') {
    if (!idempotent) return { retry: false };
    reason = 'timeout';
  } else {
    if (!idempotent && !outcome.neverSent) return { retry: false };
    reason = 'connection';
  }
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retriesDone);
  return { retry: true, delayMs: Math.round(ceiling / 2 + (random * ceiling) / 2), reason };
}

// RFC 9110 §5.6.7 IMF-fixdate, the only HTTP-date form a sender may generate. `Date.parse` alone is
// not enough: V8 reads almost anything as a date (`1.5` is 1 January 2001, already past: no wait at all).
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * `Retry-After` as milliseconds from `now`: delta-seconds (digits; a decimal such as `1.5` is read as
 * seconds too) or an IMF-fixdate; `undefined` when absent or in any other form.
 */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  if (!IMF_FIXDATE.test(trimmed)) return undefined;
  // A date is one only if it reads back as written (`toUTCString` writes IMF-fixdate; the weekday is
  // not compared): not one that rolls over (31 Feb, 24:00), names no month, or is in years 0000–0099,
  // which `Date.parse` moves to 1950–2049.
  const date = Date.parse(trimmed);
  return new Date(date).toUTCString().slice(4) === trimmed.slice(4) ? Math.max(0, date - now) : undefined;
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
