import * as z from 'zod/mini';
import { runOperation } from '../core/operation.js';
import type { APIPromise } from '../core/response/api-promise.js';
import type { RequestOptions } from '../core/types.js';
import { isoDate, oneOf } from './fields.js';
import { APIResource } from './resource.js';

/** One day of {@link CallStats.by_day} (SPEC.md, Call statistics). */
export interface DailyCallStats {
  /** The day, `YYYY-MM-DD`. */
  date: string;
  /** Calls that day. */
  total_calls: number;
  /** Inbound calls that day. */
  inbound_calls: number;
  /** Outbound calls that day. */
  outbound_calls: number;
  /** Talk time that day, in **seconds**. */
  total_duration: number;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const DailyCallStatsSchema = z.looseObject({
  date: z.string(),
  total_calls: z.number(),
  inbound_calls: z.number(),
  outbound_calls: z.number(),
  total_duration: z.number(),
});

/**
 * What `stats.calls` returns (`data.stats`; SPEC.md, Call statistics): totals for the period, and
 * `by_day` when grouped by day. Week and month groupings (whose names SPEC.md does not show) are kept
 * as extra fields.
 */
export interface CallStats {
  /** Calls in the period. */
  total_calls: number;
  /** Talk time in the period, in **seconds**. */
  total_duration: number;
  /** Average duration per call; may be fractional (SPEC.md states no unit; `total_duration` is in seconds). */
  average_duration: number;
  /** Inbound calls. */
  inbound_calls: number;
  /** Outbound calls. */
  outbound_calls: number;
  /** Answered calls. */
  answered_calls: number;
  /** Missed calls. */
  missed_calls: number;
  /** Calls that went to voicemail. */
  voicemail_calls: number;
  /** One entry per day of the period, present when `group_by` is `day`. */
  by_day?: DailyCallStats[] | undefined;
  /** Fields the service adds (the week and month groupings among them). */
  [field: string]: unknown;
}
export const CallStatsSchema = z.looseObject({
  total_calls: z.number(),
  total_duration: z.number(),
  average_duration: z.number(),
  inbound_calls: z.number(),
  outbound_calls: z.number(),
  answered_calls: z.number(),
  missed_calls: z.number(),
  voicemail_calls: z.number(),
  by_day: z.optional(z.array(DailyCallStatsSchema)),
});

/** Query of `GET /v2/calls/stats`, held equal to {@link CallStatsParams} by a type test. Unknown keys are refused. */
export const CallStatsParamsSchema = z.strictObject({
  from: isoDate(),
  to: isoDate(),
  group_by: z.optional(oneOf(['day', 'week', 'month', 'none'])),
  user_id: z.optional(z.string()),
});
/**
 * What `stats.calls` needs: the period (`from`, `to`, both required) and optionally `group_by` and
 * `user_id` (SPEC.md, GET /v2/calls/stats). Invalid values and unknown keys reject with
 * `ValidationError` before any request.
 */
export interface CallStatsParams {
  /** Start of the period, required: ISO 8601 string (`2024-01-01`, `2024-01-01T00:00:00Z`) or `Date`. */
  from: string | Date;
  /** End of the period, required: ISO 8601 string or `Date`. */
  to: string | Date;
  /**
   * `day` adds one entry per day as `by_day`; `week` and `month` group too (the result keeps their
   * groupings as extra fields, unnamed by SPEC.md); default `none`, totals only.
   */
  group_by?: 'day' | 'week' | 'month' | 'none' | undefined;
  /** Only this user's calls; administrators only. */
  user_id?: string | undefined;
}

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
