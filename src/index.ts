export { TelephonyClient } from './client.js';
export type { Clock } from './core/clock.js';
export {
  APIConnectionError,
  APIError,
  type APIErrorInit,
  APITimeoutError,
  APIUserAbortError,
  type ApiVersion,
  type AttemptRecord,
  AuthenticationError,
  BadRequestError,
  type CallOutcome,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  TelephonyError,
  ValidationError,
  type ValidationIssue,
} from './core/errors.js';
export type {
  ClientEvents,
  ClientListener,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  SharedStateErrorEvent,
  ThrottleEvent,
  TokenEvent,
  WarningEvent,
} from './core/events.js';
export type { ClientOptions } from './core/options.js';
export type { RateLimit } from './core/pacing/plans.js';
export type { RateBudget, Reservation, SharedState, SharedToken } from './core/pacing/shared-state.js';
export type {
  HttpMethod,
  QueryValue,
  RawRequest,
  RequestOptions,
  RequestSpec,
  Transport,
} from './core/types.js';
export * from './resources/index.js';
export type * from './shared/tracer.js';
export * from './webhooks/index.js';
