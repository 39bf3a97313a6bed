import { TelephonyError } from '../shared/telephony-error.js';
import { hmacHex } from './crypto.js';

/**
 * The `Service-Signature` header for a body, as the service sends it — for tests and local tools.
 *
 * @param body the exact bytes that will be sent.
 * @param options.timestamp unix seconds (a whole number, not `Date.now()`'s milliseconds); defaults to now.
 * @returns `t=<unix seconds>,v1=<lower-case hex HMAC-SHA256 of the body>`.
 * @throws {TelephonyError} when `timestamp` is not whole unix seconds: negative, fractional, not
 *   finite, or above 1e11 (milliseconds, which every receiver would refuse as out of tolerance).
 */
export async function signWebhook(
  body: string | Uint8Array,
  secret: string,
  options: { timestamp?: number } = {},
): Promise<string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!(Number.isInteger(timestamp) && timestamp >= 0 && timestamp <= 1e11))
    // Short on purpose (no value echoed): the whole webhooks entry is within bytes of its size budget.
    throw new TelephonyError(
      'timestamp must be a whole number of seconds, e.g. Math.floor(Date.now() / 1000)',
    );
  return `t=${timestamp},v1=${await hmacHex(body, secret)}`;
}
