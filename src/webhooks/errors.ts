import { TelephonyError } from '../shared/telephony-error.js';

/** Why a delivery failed verification. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  /** The body is correctly signed but is not a JSON event envelope. */
  | 'malformed_payload'
  /** Verified, but its `created_at` is older than the receiver's `maxEventAge` (or missing): a replay. */
  | 'event_too_old';

/** A webhook delivery failed verification; `status` is what a receiver should answer. */
export class WebhookVerificationError extends TelephonyError {
  override readonly name = 'WebhookVerificationError';
  /** HTTP status to answer: 401 for a signature mismatch, 400 otherwise. */
  readonly status: 400 | 401;

  /**
   * @param reason why verification failed: `missing_header`, `malformed_header`,
   *   `timestamp_out_of_tolerance`, `malformed_payload`, `event_too_old` (status 400) or `signature_mismatch` (401).
   */
  constructor(readonly reason: WebhookVerificationReason) {
    super(`Webhook verification failed: ${reason.replace(/_/g, ' ')}`);
    this.status = reason === 'signature_mismatch' ? 401 : 400;
  }
}
