import { hmacHex } from './crypto.js';

/**
 * The `Service-Signature` header for a body, as the service sends it — for tests and local tools.
 *
 * @param body the exact bytes that will be sent.
 * @param options.timestamp unix seconds; defaults to now.
 * @returns `t=<unix seconds>,v1=<lower-case hex HMAC-SHA256 of the body>`.
 */
export async function signWebhook(
  body: string | Uint8Array,
  secret: string,
  options: { timestamp?: number } = {},
): Promise<string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return `t=${timestamp},v1=${await hmacHex(body, secret)}`;
}
