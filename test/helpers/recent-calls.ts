import { HttpResponse, http } from 'msw';
import { BASE } from './client.js';

/**
 * msw handler for `GET /v2/calls/recent` serving `calls()` as the service does: newest first (the
 * array's order), paged by `limit` (default 20) and `offset`, `has_more` while calls remain. `total`
 * replaces the count the answer gives (a service whose count lags); `onRequest` sees each query first.
 */
export function recentCallsHandler<Call>(
  calls: () => readonly Call[],
  listForm: (call: Call) => Record<string, unknown>,
  { total, onRequest }: { total?: () => number; onRequest?: (query: URLSearchParams) => void } = {},
) {
  return http.get(`${BASE}/v2/calls/recent`, ({ request }) => {
    const query = new URL(request.url).searchParams;
    onRequest?.(query);
    const all = calls();
    const limit = Number(query.get('limit') ?? 20);
    const offset = Number(query.get('offset') ?? 0);
    const page = all.slice(offset, offset + limit);
    return HttpResponse.json({
      status: 'success',
      data: {
        calls: page.map(listForm),
        pagination: {
          total: total?.() ?? all.length,
          limit,
          offset,
          has_more: offset + page.length < all.length,
        },
      },
    });
  });
}
