export {
  type NumberedPagination,
  type OffsetPagination,
  Page,
  PagePromise,
  type Pagination,
} from '../core/response/pagination.js';
export {
  type Call,
  type CallDetail,
  type CallParty,
  type CallStatus,
  Calls,
  type CreateCallParams,
  type CreatedCall,
  type EndedCall,
  type ListRecentCallsParams,
  type TransferCallParams,
  type TransferredCall,
} from './calls.js';
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
