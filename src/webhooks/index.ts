export { TelephonyError } from '../shared/telephony-error.js';
export type * from '../shared/tracer.js';
export { ValidationError, type ValidationIssue } from '../shared/validation-error.js';
export type { NodeRequest, NodeResponse } from './adapters.js';
export {
  type BeginAnswer,
  type DedupStore,
  type DedupStoreWithBegin,
  MemoryDedupStore,
  type MemoryDedupStoreOptions,
} from './dedup.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export type * from './events.js';
export type { HeadersLike } from './header.js';
export { type HandleResult, WebhookReceiver } from './receiver.js';
export type { WebhookHandler, WebhookReceiverEvents } from './receiver-events.js';
export type { WebhookReceiverOptions } from './receiver-options.js';
export { signWebhook } from './signature.js';
export { type VerifyWebhookOptions, verifyWebhook } from './verify.js';
