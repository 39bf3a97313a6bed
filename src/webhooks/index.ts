export { TelephonyError } from '../shared/telephony-error.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export type * from './events.js';
export { signWebhook } from './signature.js';
export { type VerifyWebhookOptions, verifyWebhook } from './verify.js';
