export { TelephonyError } from '../shared/telephony-error.js';
export type { NodeRequest, NodeResponse } from './adapters.js';
export { type DedupStore, MemoryDedupStore, type MemoryDedupStoreOptions } from './dedup.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export type * from './events.js';
export {
  type HandleResult,
  type HeadersLike,
  WebhookReceiver,
  type WebhookReceiverEvents,
  type WebhookReceiverOptions,
} from './receiver.js';
export { signWebhook } from './signature.js';
export { type VerifyWebhookOptions, verifyWebhook } from './verify.js';
