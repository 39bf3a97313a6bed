import { HTTPError, TimeoutError } from 'ky';
import type { Clock } from '../clock.js';
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  type ApiVersion,
  AuthenticationError,
  TelephonyError,
} from '../errors.js';
import { parseErrorBody } from '../response/body.js';
import { errorFromResponse } from '../response/error-from-response.js';
import { redact } from '../response/redact.js';
import type { Exchange } from './exchange.js';
import { readText, timedOut } from './read-body.js';
import { failureCodes, parseRetryAfter } from './retry.js';
import { userAbort } from './signals.js';

/**
 * What ky threw, as the SDK's error.
 * @param secrets every credential the client holds, replaced wherever an error would show it
 */
export async function failure(
  exchange: Exchange,
  error: unknown,
  clock: Clock,
  secrets: ReadonlyArray<string | undefined>,
  version: ApiVersion,
): Promise<TelephonyError> {
  const signal = exchange.signal;
  if (error instanceof TelephonyError) return error;
  if (signal?.aborted) return userAbort(signal);
  if (error instanceof HTTPError) {
    return errorFrom(exchange, error.response, clock, secrets, version);
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
 * The error for a non-2xx answer. An answer may echo the request (a proxy's error page, a debug
 * header): every credential of the client, the bearer the request carried and the request's own
 * `secrets` are replaced in the error's message, `body` and `headers`.
 */
async function errorFrom(
  exchange: Exchange,
  response: Response,
  clock: Clock,
  clientSecrets: ReadonlyArray<string | undefined>,
  version: ApiVersion,
): Promise<APIError> {
  const secrets = [...clientSecrets, exchange.bearer, ...exchange.secrets].filter(
    (s): s is string => typeof s === 'string',
  );
  // An error body that cannot be read leaves the error its status; only the caller's abort wins.
  const text = await readText(exchange, response).catch((error: unknown) => {
    if (error instanceof APIUserAbortError) throw error;
    return '';
  });
  const body = redact(parseErrorBody(text), secrets);
  const headers = redact(Object.fromEntries(response.headers), secrets);
  const { status } = response;
  const tokenRequest = exchange.credential === undefined;
  if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
    const location = response.headers.get('location');
    return new (tokenRequest ? AuthenticationError : APIError)({
      status,
      code: 'redirect_not_followed',
      message: `the answer redirects${location === null ? '' : ` to ${redact(location, secrets)}`}; the SDK follows no redirect, so credentials go only to the configured base URL`,
      headers,
      body,
      apiVersion: version,
      operation: exchange.operation,
    });
  }
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
  return errorFromResponse(status, body, headers, version, exchange.operation, {
    retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
    tokenRequest,
  });
}
