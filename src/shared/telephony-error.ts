/**
 * Whether the service acted on a call that failed: `'not_sent'` (nothing reached it: bad input, a
 * refused connection, an abort or a pause before sending, a budget refusal), `'rejected'` (it
 * answered that it did not do it: a 4xx, a 429, a 5xx to a request other than POST) or `'unknown'`
 * (it may have, and its answer was lost or unreadable: a time-out or reset after sending, a
 * malformed answer, a 5xx to a POST).
 */
export type CallOutcome = 'not_sent' | 'rejected' | 'unknown';

/** One attempt of a call, as its error reports it. */
export interface AttemptRecord {
  /** HTTP status of the answer, for an attempt that got one. */
  status?: number;
  /** The answer's machine code, for the attempt whose answer the error was built from. */
  code?: string;
  /** The error class name (`'APITimeoutError'`, `'APIConnectionError'`) for an attempt with no answer. */
  error?: string;
  /** Milliseconds from the attempt's start to its answer's headers, or to its failure. */
  ms: number;
  /** Milliseconds waited before this attempt (backoff, `Retry-After`, rate budget or pause). */
  waitedMs?: number;
}

/**
 * Base class of every error this SDK throws, from every entry point: `catch (e) { if (e instanceof
 * TelephonyError) … }` catches them all. Messages never contain a credential.
 *
 * `telephony-sdk/webhooks` exports the same class, without loading the HTTP client. Its constructor
 * is Error's: `(message, { cause })`.
 */
export class TelephonyError extends Error {
  /** The class name (`'RateLimitError'`, `'WebhookVerificationError'`, …), for logs; branch with `instanceof`. */
  override readonly name: string = 'TelephonyError';
  /**
   * Whether the service may have acted (see {@link CallOutcome}). Set on every error a call rejects
   * with; `'not_sent'` for an error raised before any request (a `ValidationError`).
   */
  readonly outcome: CallOutcome = 'not_sent';
  /** The call's attempts, oldest first; empty when nothing was attempted. */
  readonly attempts: readonly AttemptRecord[] = [];
  /**
   * The id the SDK gave the call, the same as in its `'request'`, `'response'` and `'retry'` events;
   * `undefined` for an error raised before a call started (bad params, a bad option).
   */
  readonly requestId: string | undefined = undefined;
}
