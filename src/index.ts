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
  WaitTimeoutError,
} from './core/errors.js';
export type {
  ClientEvents,
  ClientListener,
  DeprecatedWarning,
  RateLimitAbovePlanWarning,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  SharedStateErrorEvent,
  ThrottleEvent,
  TokenEvent,
  V1DeprecatedWarning,
  WarningEvent,
} from './core/events.js';
export type { Logger, LogLevel } from './core/logs/level.js';
export type { ClientOptions } from './core/options.js';
export type { RateLimit } from './core/pacing/plans.js';
export type { RateBudget, Reservation, SharedState, SharedToken } from './core/pacing/shared-state.js';
export { APIPromise, type WithResponse } from './core/response/api-promise.js';
export type { Middleware, MiddlewareContext } from './core/transport/middleware.js';
export type {
  HttpMethod,
  QueryValue,
  RawRequest,
  RequestOptions,
  RequestSpec,
  Transport,
} from './core/types.js';
export * from './resources/index.js';
export { FINAL_CALL_STATUSES } from './shared/call-status.js';
export type * from './shared/tracer.js';
export * from './webhooks/index.js';
