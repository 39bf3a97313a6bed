/**
 * `GET /v1/calls` (SPEC.md, Version 1: named with page, per_page, status, date_from, date_to): the
 * calls in SPEC.md's short form, `from` and `to` as plain numbers, with page-style pagination inside
 * `data`, as SPEC.md's short calls example has it.
 */
import { CALL_STATUSES } from '../shared/call-status.js';
import type { CallStore } from './calls.js';
import { success } from './http.js';
import { dateParam, enumParam, intParam } from './validate.js';

/** Newest first, like calls/recent; any valid API key may read it (SPEC.md names no permission). */
export function listLegacyCalls(store: CallStore, query: URLSearchParams) {
  const page = intParam(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  const perPage = intParam(query, 'per_page', 10, 1, 100);
  const status = enumParam(query, 'status', CALL_STATUSES);
  const from = dateParam(query, 'date_from');
  const to = dateParam(query, 'date_to', true);
  const matching = store
    .all()
    .filter((call) => status === undefined || call.status === status)
    .filter(
      (call) => (from === undefined || call.startedAt >= from) && (to === undefined || call.startedAt <= to),
    )
    .sort((a, b) => b.startedAt - a.startedAt || b.id.localeCompare(a.id));
  const calls = matching
    .slice((page - 1) * perPage, page * perPage)
    .map((call) => ({ id: call.id, from: call.from.number, to: call.to.number, status: call.status }));
  return success({
    calls,
    pagination: {
      total: matching.length,
      page,
      per_page: perPage,
      pages: Math.ceil(matching.length / perPage),
    },
  });
}
