import * as z from 'zod/mini';
import { listPages, type PagePromise } from '../core/response/page.js';
import { type NumberedPagination, numberedPages } from '../core/response/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { CALL_STATUSES, type CallStatus, type KnownCallStatus } from '../shared/call-status.js';
import { intBetween, isoDate, oneOf, openEnum } from './fields.js';
import { APIResource } from './resource.js';

/**
 * A call as the v1 list `GET /v1/calls` gives it: SPEC.md's short form, with `from` and `to` as plain
 * number strings. Only `id`, `from`, `to` and `status` are sure; every other field the service sends
 * is kept as sent.
 */
export interface LegacyCall {
  /** Call id. */
  id: string;
  /** The caller's number, E.164. */
  from: string;
  /** The called number, E.164. */
  to: string;
  /** Current status (`completed`, …; SPEC.md, Call status values). */
  status: CallStatus;
  /** Fields the service adds, as sent. */
  [field: string]: unknown;
}
export const LegacyCallSchema = z.looseObject({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  status: openEnum<KnownCallStatus>(),
});

/**
 * Query of `GET /v1/calls`, held equal to {@link ListLegacyCallsParams} by a type test. Unknown keys
 * are refused (a typo would silently not filter).
 */
export const ListLegacyCallsParamsSchema = z.strictObject({
  page: z.optional(intBetween(1)),
  per_page: z.optional(intBetween(1, 100)),
  status: z.optional(oneOf(CALL_STATUSES)),
  date_from: z.optional(isoDate()),
  date_to: z.optional(isoDate()),
});
/**
 * Filters and paging of `legacyCalls.list`; all optional. SPEC.md names them (Version 1) without
 * their rules. Unknown keys reject with `ValidationError`.
 */
export interface ListLegacyCallsParams {
  /** Page number: an integer ≥ 1, default 1. `for await` advances it for you. */
  page?: number | undefined;
  /** Calls per page: an integer from 1 to 100, default 10 (SPEC.md, Limits: page-style lists). */
  per_page?: number | undefined;
  /**
   * Only calls in this status: `initiating`, `ringing`, `answered`, `missed`, `voicemail`, `completed`,
   * `transferring` or `ended` (SPEC.md, Call status values).
   */
  status?: KnownCallStatus | undefined;
  /** Start of the period: ISO 8601 string (`2024-01-31`, `2024-01-31T09:00:00Z`) or `Date`. */
  date_from?: string | Date | undefined;
  /** End of the period: ISO 8601 string or `Date`. */
  date_to?: string | Date | undefined;
}

/** Calls through the v1 API (authorized with the API key at `baseUrlV1`). */
export class LegacyCalls extends APIResource {
  /**
   * Calls in SPEC.md's short form, one page at a time. Await it for one {@link Page}; iterate it with
   * `for await` for every call of every page. The page-style pagination is read inside `data` or
   * beside it. Authorized with `apiKey` at `baseUrlV1`.
   *
   * @throws {ValidationError} (a rejection, nothing sent) when a param is invalid or unknown.
   *
   * @example
   * ```ts
   * for await (const call of client.legacyCalls.list({ status: 'completed', per_page: 50 })) {
   *   console.log(call.id, call.from, call.to);
   * }
   * ```
   */
  list(
    params: ListLegacyCallsParams = {},
    options?: RequestOptions,
  ): PagePromise<LegacyCall, NumberedPagination> {
    return listPages(
      this.transport,
      {
        method: 'GET',
        path: '/v1/calls',
        query: { schema: ListLegacyCallsParamsSchema, value: params },
        items: 'calls',
        itemSchema: LegacyCallSchema,
        pagination: numberedPages,
      },
      options,
    );
  }
}
