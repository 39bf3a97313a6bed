export { Page, PagePromise } from '../core/response/page.js';
export type { NumberedPagination, OffsetPagination, Pagination } from '../core/response/pagination.js';
export {
  type CallCondition,
  Calls,
  type CreateCallOptions,
  type FindByIdempotencyKeyOptions,
  type WaitForCallOptions,
} from './calls.js';
export type {
  Call,
  CallDetail,
  CallDetailCallee,
  CallDetailCaller,
  CallDirection,
  CallParty,
  CallQueue,
  CallStatus,
  CreateCallParams,
  CreatedCall,
  EndedCall,
  KnownCallStatus,
  ListRecentCallsParams,
  TransferCallParams,
  TransferredCall,
} from './calls-schemas.js';
export { type LegacyCall, LegacyCalls, type ListLegacyCallsParams } from './legacy-calls.js';
export { type CallStats, type CallStatsParams, type DailyCallStats, Stats } from './stats.js';
export {
  type CreateUserParams,
  type DeletedUser,
  type ListUsersParams,
  type UpdateUserParams,
  type User,
  type UserNotifications,
  type UserPreferences,
  Users,
} from './users.js';
export {
  type CreatedWebhook,
  type CreateWebhookParams,
  type WebhookRegistration,
  Webhooks,
} from './webhooks.js';
