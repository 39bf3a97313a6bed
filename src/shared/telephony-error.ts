/**
 * Base class of every error this SDK throws, from every entry point: `catch (e) { if (e instanceof
 * TelephonyError) … }` catches them all. Messages never contain a credential.
 *
 * Lives in `shared/` so that `telephony-sdk/webhooks` can extend it without loading the HTTP client.
 * Its constructor is Error's: `(message, { cause })`.
 */
export class TelephonyError extends Error {
  /** The class name (`'RateLimitError'`, `'WebhookVerificationError'`, …), for logs; branch with `instanceof`. */
  override readonly name: string = 'TelephonyError';
}
