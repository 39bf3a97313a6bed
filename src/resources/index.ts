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
  CallParty,
  CallStatus,
  CreateCallParams,
  CreatedCall,
  EndedCall,
  FullCall,
  ListRecentCallsParams,
  ShortCall,
  TransferCallParams,
  TransferredCall,
} from './calls-schemas.js';
export { type CallStats, type CallStatsParams, type DailyCallStats, Stats } from './stats.js';
export {
  type CreateUserParams,
  type DeletedUser,
  type ListUsersParams,
  type UpdateUserParams,
  type User,
  type UserPreferences,
  Users,
} from './users.js';
export {
  type CreatedWebhook,
  type CreateWebhookParams,
  type WebhookRegistration,
  Webhooks,
} from './webhooks.js';
