import { HTTPError, TimeoutError } from 'ky';
import type { Clock } from '../clock.js';
import {
  APIConnectionError,
  type APIError,
  APIUserAbortError,
  type ApiVersion,
  TelephonyError,
} from '../errors.js';
import { loadErrorMapping } from '../load.js';
import type { Exchange } from './exchange.js';
import { readText, timedOut } from './read-body.js';
import { failureCodes, parseRetryAfter } from './retry.js';
import { userAbort } from './signals.js';

/**
 * What ky threw, as the SDK's error.
 * @param secrets every credential the client holds and the tokens it held, replaced wherever an error
 *   would show them
 * @param patterns the client's redaction expressions, by secret
 */
export async function failure(
  exchange: Exchange,
  error: unknown,
  clock: Clock,
  secrets: ReadonlyArray<string | undefined>,
  patterns: Map<string, RegExp>,
  version: ApiVersion,
): Promise<TelephonyError> {
  const signal = exchange.signal;
  if (error instanceof TelephonyError) return error;
  if (signal?.aborted) return userAbort(signal);
  if (error instanceof HTTPError) {
    return errorFrom(exchange, error.response, clock, secrets, patterns, version);
  }
  if (error instanceof TimeoutError) {
    return timedOut(exchange);
  }
  const codes = failureCodes(error);
  return new APIConnectionError(
    `${exchange.operation} failed: no HTTP answer from ${new URL(exchange.url).origin}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`,
    { cause: error },
  );
}

/**
 * The error for a non-2xx answer (error-from-response.ts, loaded on first use by a browser). Its body is
 * read up to `maxResponseBytes`; past that, the error is made from its first bytes.
 */
async function errorFrom(
  exchange: Exchange,
  response: Response,
  clock: Clock,
  secrets: ReadonlyArray<string | undefined>,
  patterns: Map<string, RegExp>,
  apiVersion: ApiVersion,
): Promise<APIError> {
  let cutAt: number | undefined;
  // An error body that cannot be read leaves the error its status; only the caller's abort wins.
  const text = await readText(exchange, response, () => {
    cutAt = exchange.maxResponseBytes;
  }).catch((error: unknown) => {
    if (error instanceof APIUserAbortError) throw error;
    return '';
  });
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
  // A browser that cannot load the mapping (offline) still rejects with an SDK error.
  const mapping = await loadErrorMapping().catch((cause: unknown) => {
    throw new TelephonyError(`${exchange.operation} → ${response.status}: the error could not be read`, {
      cause,
    });
  });
  return mapping.errorFromResponse({
    response,
    text,
    cutAt,
    secrets: [...secrets, exchange.bearer, ...exchange.secrets],
    patterns,
    operation: exchange.operation,
    apiVersion,
    tokenRequest: exchange.credential === undefined,
    retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
  });
}
