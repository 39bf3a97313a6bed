import { hmacHex } from './crypto.js';
import { badArgument } from './verify.js';

/**
 * The `Service-Signature` header for a body, as the service sends it — for tests and local tools.
 *
 * @param body the exact bytes that will be sent.
 * @param options.timestamp unix seconds (a whole number, not `Date.now()`'s milliseconds); defaults to now.
 * @returns `t=<unix seconds>,v1=<lower-case hex HMAC-SHA256 of the body>`.
 * @throws {ValidationError} (a rejection; its issue's `path` names the argument) when `body` is not
 *   bytes or text, `secret` is not a non-empty string, `options` is not an object, or `timestamp` is
 *   not whole unix seconds: negative, fractional, not finite, or above 1e11 (milliseconds, which
 *   every receiver would refuse as out of tolerance).
 */
export async function signWebhook(
  body: string | Uint8Array,
  secret: string,
  options: { timestamp?: number } = {},
): Promise<string> {
  if (typeof body !== 'string' && !(body instanceof Uint8Array))
    throw badArgument('body', 'body must be the exact bytes (a Uint8Array) or their text');
  if (typeof secret !== 'string' || !secret)
    throw badArgument('secret', 'a non-empty webhook secret is required');
  if (typeof options !== 'object' || options === null)
    throw badArgument('options', 'options must be an object, e.g. { timestamp }, or left out');
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!(Number.isInteger(timestamp) && timestamp >= 0 && timestamp <= 1e11))
    throw badArgument(
      'options.timestamp',
      'timestamp must be a whole number of seconds, e.g. Math.floor(Date.now() / 1000)',
    );
  return `t=${timestamp},v1=${await hmacHex(body, secret)}`;
}
