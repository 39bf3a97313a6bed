import { HTTPError, TimeoutError } from 'ky';
import type { Credential } from '../auth/credentials.js';
import {
  APIConnectionError,
  APITimeoutError,
  RateLimitError,
  type TelephonyError,
  ValidationError,
} from '../errors.js';
import { collectText } from '../response/body.js';
import type { HttpMethod } from '../types.js';
import { failureCodes, type Outcome, parseRetryAfter, provablyNeverSent } from './retry.js';
import { type Link, userAbort } from './signals.js';

export const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** One logical request while ky runs its attempts: what the hooks and the retry policy need to know. */
export interface Exchange {
  method: HttpMethod;
  url: string;
  operation: string;
  /** POSTs are not, except the token request (see retry.ts). */
  idempotent: boolean;
  credential: Credential | undefined;
  /** The bearer value the current attempt carries. */
  bearer: string | undefined;
  /** Values of the request that no error may show (a webhook signing secret). */
  secrets: ReadonlyArray<string | undefined>;
  /** Whose rate budget the call uses (`<account>:v2`); `undefined` for the token request. */
  scope: string | undefined;
  /** Only when the caller passed a signal: a signal given to ky costs an `AbortSignal.any` per call. */
  link: Link | undefined;
  timeout: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  /** Retries made for the policy's reasons; the one repeat after a 401 is not among them. */
  retries: number;
  refreshed: boolean;
  /** Set by the policy for the wait before the next attempt. */
  delayMs: number;
  reason: string;
  /** When the current attempt's fetch started (wall clock: the deadline runs on real timers). */
  startedAt: number;
  /** The attempt whose answer was last reported by a `'response'` event. */
  reported: number;
  attempt: number;
}

export const exchangeOf = (options: { context: Record<string, unknown> }) =>
  options.context.exchange as Exchange;

/** `'post'` and `'Post'` are POST, so the retry policy recognises them; an unknown method is refused. */
export function methodOf(method: string): HttpMethod {
  const upper = typeof method === 'string' ? (method.toUpperCase() as HttpMethod) : undefined;
  if (upper !== undefined && METHODS.includes(upper)) return upper;
  throw new ValidationError(`Unsupported method ${String(method).slice(0, 16)}: use ${METHODS.join(', ')}`, [
    { path: 'method', message: `must be one of ${METHODS.join(', ')}` },
  ]);
}

/** What a failed attempt produced, for the retry policy. */
export function outcomeOf(error: Error, now: number): Outcome {
  if (error instanceof HTTPError) {
    const { status, headers } = error.response;
    return { kind: 'status', status, retryAfterMs: parseRetryAfter(headers.get('retry-after'), now) };
  }
  if (error instanceof TimeoutError) return { kind: 'timeout' };
  return { kind: 'connection', neverSent: provablyNeverSent(failureCodes(error)) };
}

export function timedOut(exchange: Exchange): APITimeoutError {
  return new APITimeoutError(`${exchange.operation} timed out after ${exchange.timeout} ms`);
}

/** A call that would wait longer than `maxRetryAfter` for budget fails at once, as a 429 would. */
export function overBudget(exchange: Exchange, waitMs: number): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  return new RateLimitError({
    status: 429,
    code: 'rate_budget_exhausted',
    message: `the rate budget (rateLimit) frees a slot in ${seconds} s, longer than maxRetryAfter (${exchange.maxRetryAfterMs / 1000} s); nothing was sent`,
    headers: {},
    body: undefined,
    apiVersion: exchange.scope?.endsWith(':v1') ? 'v1' : 'v2',
    operation: exchange.operation,
    retryAfter: seconds,
  });
}

/**
 * An answer's body as text, within what is left of the attempt's deadline: a body that stalls after
 * its headers fails the call with `APITimeoutError` instead of hanging it, and the caller's abort
 * stops it with `APIUserAbortError`. The SDK holds the reader, so it cancels the stream itself:
 * that needs no signal on the request, and works with a fetch (a custom one, a mock) that ignores
 * an abort once it has handed the body over.
 */
export function readText(exchange: Exchange, response: Response): Promise<string> {
  const { body } = response;
  if (body === null) return Promise.resolve('');
  const signal = exchange.link?.controller.signal;
  if (signal?.aborted) return Promise.reject(userAbort(signal));
  const reader = body.getReader();
  return new Promise<string>((resolve, reject) => {
    const stop = (error: TelephonyError) => {
      reader.cancel().catch(() => {});
      reject(error);
    };
    const onAbort = () => stop(userAbort(signal));
    const timer = setTimeout(
      () => stop(timedOut(exchange)),
      Math.max(0, exchange.startedAt + exchange.timeout - Date.now()),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    collectText(reader)
      .then(resolve, (error: unknown) =>
        reject(
          new APIConnectionError(`${exchange.operation}: the response body could not be read`, {
            cause: error,
          }),
        ),
      )
      .finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      });
  });
}
