import * as z from 'zod/mini';
import { runOperation } from '../core/operation.js';
import { isoDate } from '../core/schema.js';
import type { RequestOptions } from '../core/transport.js';
import { APIResource } from './resource.js';

/** One day of `by_day`. */
export const DailyCallStatsSchema = z.looseObject({
  /** YYYY-MM-DD. */
  date: z.string(),
  total_calls: z.number(),
  inbound_calls: z.number(),
  outbound_calls: z.number(),
  total_duration: z.number(),
});
export type DailyCallStats = z.infer<typeof DailyCallStatsSchema>;

/** `data.stats` of `GET /v2/calls/stats`. Week and month groupings (not documented) are kept as extra fields. */
export const CallStatsSchema = z.looseObject({
  total_calls: z.number(),
  /** Seconds. */
  total_duration: z.number(),
  average_duration: z.number(),
  inbound_calls: z.number(),
  outbound_calls: z.number(),
  answered_calls: z.number(),
  missed_calls: z.number(),
  voicemail_calls: z.number(),
  /** Present when `group_by` is `day`. */
  by_day: z.optional(z.array(DailyCallStatsSchema)),
});
export type CallStats = z.infer<typeof CallStatsSchema>;

/** Query of `GET /v2/calls/stats`. */
export const CallStatsParamsSchema = z.strictObject({
  /** Start of the period (ISO 8601 or `Date`). */
  from: isoDate(),
  /** End of the period (ISO 8601 or `Date`). */
  to: isoDate(),
  /** Default `none`. */
  group_by: z.optional(z.enum(['day', 'week', 'month', 'none'])),
  /** Administrators only. */
  user_id: z.optional(z.string()),
});
export type CallStatsParams = z.input<typeof CallStatsParamsSchema>;

const StatsData = z.looseObject({ stats: CallStatsSchema });

/** Aggregated call statistics (v2). */
export class Stats extends APIResource {
  /** Totals for a period, optionally grouped by day (`by_day`). */
  async calls(params: CallStatsParams, options?: RequestOptions): Promise<CallStats> {
    return runOperation(
      this.transport,
      {
        method: 'GET',
        path: '/v2/calls/stats',
        query: { schema: CallStatsParamsSchema, value: params },
        data: StatsData,
        result: (data) => data.stats,
      },
      options,
    );
  }
}
