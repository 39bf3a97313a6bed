import { ValidationError } from '../shared/validation-error.js';
import { matchesAny } from './crypto.js';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './events.js';
import { parseSignatureHeader } from './header.js';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance between the signature's timestamp and now, in seconds, both ways. Default 300. */
  tolerance?: number;
  /** Current time in unix seconds, for tests. */
  now?: number;
}

const RAW_BODY_HINT =
  'verifyWebhook needs the raw request body (its exact bytes or their text), not a parsed object: ' +
  "node:http, the Buffer chunks; Express, express.raw({ type: 'application/json' }); fetch, await request.arrayBuffer()";

const decoder = new TextDecoder();

/** A bad argument: a `ValidationError` whose one issue names it (never a raw `TypeError`). */
export const badArgument = (path: string, message: string) =>
  new ValidationError(message, [{ path, message }]);

/**
 * Verifies a delivery's `Service-Signature` header (HMAC-SHA256 of the exact body, timestamp within
 * `tolerance` seconds, default 300) and returns the parsed, typed event. Events of types this SDK
 * does not know yet are returned too (see {@link UnknownWebhookEvent}).
 *
 * @example
 * ```ts
 * // verifyWebhook and WebhookVerificationError come from telephony-sdk/webhooks
 * export async function POST(request: Request): Promise<Response> {
 *   const rawBody = await request.arrayBuffer(); // the exact bytes, not parsed JSON
 *   try {
 *     const event = await verifyWebhook(rawBody, request.headers.get('service-signature'), secret);
 *     if (event.type === 'call.incoming') console.log(event.data.call.from.number);
 *     return new Response(null, { status: 200 });
 *   } catch (error) {
 *     if (error instanceof WebhookVerificationError) return new Response(null, { status: error.status });
 *     throw error;
 *   }
 * }
 * ```
 *
 * @param rawBody the exact bytes received (Uint8Array, Buffer or ArrayBuffer), or their text.
 * @param header the `Service-Signature` header value; node:http's `req.headers['service-signature']`
 *   as it is (a repeated header given as an array counts by its first value, as in `WebhookReceiver`).
 * @param secret the webhook secret, or several during a rotation (any may match).
 * @throws {WebhookVerificationError} with `reason` and `status` when the delivery must be refused.
 * @throws {WebhookVerificationError} `malformed_payload` (400) when a correctly signed body is not a JSON event envelope.
 * @throws {ValidationError} (a rejection; its issue's `path` names the argument) when called wrongly: a
 *   parsed body (`rawBody`), no secret (`secret`), options that are not an object (`options`), a bad
 *   tolerance or now (`options.tolerance`, `options.now`).
 */
export function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  header: string | readonly string[] | null | undefined,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  try {
    const event = verifyEvent(rawBody, header, secret, options);
    return event instanceof Promise ? event : Promise.resolve(event);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link verifyWebhook}, synchronous where the crypto is (Node: each avoided promise hop is
 * measurable on small bodies), throwing rather than rejecting; a promise only on the Web Crypto path.
 */
export function verifyEvent(
  rawBody: string | Uint8Array | ArrayBuffer,
  header: string | readonly string[] | null | undefined,
  secret: string | readonly string[],
  options: VerifyWebhookOptions,
): WebhookEvent | Promise<WebhookEvent> {
  const body = rawBody instanceof ArrayBuffer ? new Uint8Array(rawBody) : rawBody;
  const matched = check(body, header, secret, options);
  return typeof matched === 'boolean' ? parse(body, matched) : matched.then((ok) => parse(body, ok));
}

function check(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: string | readonly string[],
  options: VerifyWebhookOptions,
): boolean | Promise<boolean> {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array))
    throw badArgument('rawBody', RAW_BODY_HINT);
  const { secrets, tolerance, now } = checkSettings(secret, options);
  const { timestamp, signatures } = parseSignatureHeader(header);
  // Written so that anything but a number within the window (NaN included) is refused.
  if (!(Math.abs(now - timestamp) <= tolerance))
    throw new WebhookVerificationError('timestamp_out_of_tolerance');
  return matchesAny(rawBody, signatures, secrets);
}

function parse(rawBody: string | Uint8Array, matched: boolean): WebhookEvent {
  if (!matched) throw new WebhookVerificationError('signature_mismatch');
  let event: Partial<WebhookEvent> | null = null;
  try {
    event = JSON.parse(typeof rawBody === 'string' ? rawBody : decoder.decode(rawBody));
  } catch {}
  const data = event?.data;
  if (
    typeof event?.id !== 'string' ||
    typeof event.type !== 'string' ||
    !data ||
    typeof data !== 'object' ||
    Array.isArray(data)
  )
    throw new WebhookVerificationError('malformed_payload');
  return event as WebhookEvent;
}

/**
 * The secrets as a list, with the tolerance and now to use; throws a `ValidationError` for settings
 * that would break verification. Shared with `WebhookReceiver`, which checks them at construction.
 */
export function checkSettings(
  secret: string | readonly string[],
  options: VerifyWebhookOptions,
): { secrets: readonly string[]; tolerance: number; now: number } {
  // `null` (or a number) where the options go would fail on destructuring, as a raw TypeError.
  if (typeof options !== 'object' || options === null)
    throw badArgument('options', 'options must be an object, e.g. { tolerance: 300 }, or left out');
  const { tolerance = 300, now = Date.now() / 1000 } = options;
  // A zero, negative or NaN tolerance, or a non-finite `now`, would silently disable or break the window.
  if (!(tolerance > 0 && tolerance < Infinity))
    throw badArgument('options.tolerance', 'tolerance must be a positive number of seconds');
  if (!Number.isFinite(now)) throw badArgument('options.now', 'now must be a finite number of unix seconds');
  // An unset environment variable arrives here as undefined: say so rather than fail on `.length`.
  const secrets = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? secret : [];
  if (!secrets.length || secrets.some((s) => typeof s !== 'string' || !s))
    throw badArgument('secret', 'a non-empty webhook secret is required');
  return { secrets, tolerance, now };
}
