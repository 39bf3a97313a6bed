/**
 * Base class of every error this SDK throws, from every entry point.
 *
 * Lives in `shared/` so that `telephony-sdk/webhooks` can extend it without loading the HTTP client.
 */
export class TelephonyError extends Error {
  override readonly name: string = 'TelephonyError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
