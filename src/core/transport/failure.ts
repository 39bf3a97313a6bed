import { HTTPError, TimeoutError } from 'ky';
import type { Clock } from '../clock.js';
import { APIConnectionError, APIUserAbortError, TelephonyError } from '../errors.js';
import { errorFromResponse } from '../response/error-from-response.js';
import type { Exchange } from './exchange.js';
import { readText, timedOut } from './read-body.js';
import { failureCodes, parseRetryAfter } from './retry.js';
import { userAbort } from './signals.js';

/**
 * What ky threw, as the SDK's error. A non-2xx answer is mapped by error-from-response.ts, from its body read up to `maxResponseBytes` (past that, its first bytes).
 * @param secrets every credential the client holds, the tokens it held and the call's own secrets,
 *   replaced wherever an error would show them
 * @param patterns the client's redaction expressions, by secret
 */
export async function failure(
  exchange: Exchange,
  error: unknown,
  clock: Clock,
  secrets: ReadonlyArray<string | undefined>,
  patterns: Map<string, RegExp>,
): Promise<TelephonyError> {
  const signal = exchange.signal;
  if (error instanceof TelephonyError) return error;
  if (signal?.aborted) return userAbort(signal);
  if (error instanceof TimeoutError) return timedOut(exchange);
  if (!(error instanceof HTTPError)) {
    const codes = failureCodes(error);
    return new APIConnectionError(
      `${exchange.operation} failed: no HTTP answer from ${new URL(exchange.url).origin}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`,
      { cause: error },
    );
  }
  const { response } = error;
  let cutAt: number | undefined;
  // An error body that cannot be read leaves the error its status; only the caller's abort wins.
  const text = await readText(exchange, response, () => {
    cutAt = exchange.maxResponseBytes;
  }).catch((error: unknown) => {
    if (error instanceof APIUserAbortError) throw error;
    return '';
  });
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
  return errorFromResponse({
    response,
    text,
    cutAt,
    secrets,
    patterns,
    operation: exchange.operation,
    // The token request's version is undefined (it is not paced): its answers are v2's.
    apiVersion: exchange.version ?? 'v2',
    tokenRequest: exchange.credential === undefined,
    retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
  });
}
