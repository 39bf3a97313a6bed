import * as z from 'zod/mini';
import { runOperation } from '../core/operation.js';
import type { APIPromise } from '../core/response/api-promise.js';
import type { RequestOptions } from '../core/types.js';
import { isoDate, oneOf } from './fields.js';
import { APIResource } from './resource.js';

/** One day of `by_day`. */
export const DailyCallStatsSchema = z.looseObject({
  /** YYYY-MM-DD. */
  date: z.string(),
  /** Calls that day. */
  total_calls: z.number(),
  /** Inbound calls that day. */
  inbound_calls: z.number(),
  /** Outbound calls that day. */
  outbound_calls: z.number(),
  /** Talk time that day, in seconds. */
  total_duration: z.number(),
});
/**
 * One day of {@link CallStats.by_day}.
 */
export interface DailyCallStats extends z.infer<typeof DailyCallStatsSchema> {}

/** `data.stats` of `GET /v2/calls/stats`. Week and month groupings (not documented) are kept as extra fields. */
export const CallStatsSchema = z.looseObject({
  /** Calls in the period. */
  total_calls: z.number(),
  /** Talk time in the period, in seconds. */
  total_duration: z.number(),
  /** Average duration per call; may be fractional (the service states no unit; `total_duration` is in seconds). */
  average_duration: z.number(),
  /** Inbound calls. */
  inbound_calls: z.number(),
  /** Outbound calls. */
  outbound_calls: z.number(),
  /** Answered calls. */
  answered_calls: z.number(),
  /** Missed calls. */
  missed_calls: z.number(),
  /** Calls that went to voicemail. */
  voicemail_calls: z.number(),
  /** Present when `group_by` is `day`. */
  by_day: z.optional(z.array(DailyCallStatsSchema)),
});
/**
 * What `stats.calls` returns: totals for the period, and `by_day` when grouped by day.
 */
export interface CallStats extends z.infer<typeof CallStatsSchema> {}

/** Query of `GET /v2/calls/stats`. */
export const CallStatsParamsSchema = z.strictObject({
  /** Start of the period (ISO 8601 or `Date`). */
  from: isoDate(),
  /** End of the period (ISO 8601 or `Date`). */
  to: isoDate(),
  /** Default `none`. */
  group_by: z.optional(oneOf(['day', 'week', 'month', 'none'])),
  /** Administrators only. */
  user_id: z.optional(z.string()),
});
/**
 * What `stats.calls` needs: the period (`from`, `to`, both required) and optionally `group_by` and `user_id`.
 */
export interface CallStatsParams extends z.input<typeof CallStatsParamsSchema> {}

const StatsData = z.looseObject({ stats: CallStatsSchema });

/** Aggregated call statistics (v2). */
export class Stats extends APIResource {
  /**
   * Totals for a period, optionally grouped by day (`by_day`).
   * @throws {ValidationError} (a rejection, nothing sent) when `from` or `to` is missing or not an ISO 8601 date.
   *
   * @example
   * ```ts
   * const stats = await client.stats.calls({ from: '2024-01-01', to: '2024-01-31', group_by: 'day' });
   * console.log(stats.total_calls, stats.by_day?.length);
   * ```
   */
  calls(params: CallStatsParams, options?: RequestOptions): APIPromise<CallStats> {
    return runOperation(
      this.transport,
      () => ({
        method: 'GET',
        path: '/v2/calls/stats',
        query: { schema: CallStatsParamsSchema, value: params },
        data: StatsData,
        result: (data) => data.stats,
      }),
      options,
    );
  }
}
