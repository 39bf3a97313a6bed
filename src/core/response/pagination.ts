/**
 * How a page's pagination is read, for both list styles of the service: v2 offset pagination inside
 * `data` (`total, limit, offset, has_more`) and v1 numbered pagination beside `data`
 * (`total, page, per_page, pages`), which a v2 list may also carry inside `data`. `page.ts` builds
 * the `Page` from what a strategy reads.
 */
import * as z from 'zod/mini';
import type { QueryValue } from '../types.js';
import { parseResponse } from './guard.js';

/** A list request's query: the checked params, then the paging keys a strategy sets. */
export type Query = Record<string, QueryValue>;

/**
 * v2 offset-style pagination (`GET /v2/calls/recent`), as returned inside `data` (SPEC.md,
 * Pagination objects). `OffsetPaginationSchema` checks it (held equal to it by
 * test/unit/resources/result-types.test.ts).
 */
export interface OffsetPagination {
  /** Items matching the query, across all pages. */
  total: number;
  /** Page size the request asked for (`limit`; the service's default when not given). */
  limit: number;
  /** Items skipped before this page (the request's `offset`). */
  offset: number;
  /** `true` when more items follow this page: `page.hasNextPage()` reads it. */
  has_more: boolean;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const OffsetPaginationSchema = z.looseObject({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  has_more: z.boolean(),
});

/**
 * v1 page-style pagination (`GET /v1/users`, `GET /v1/calls`), as returned beside `data` (or inside
 * it; SPEC.md, Pagination objects). `NumberedPaginationSchema` checks it.
 */
export interface NumberedPagination {
  /** Items matching the query, across all pages. */
  total: number;
  /** This page's number, from 1 (the request's `page`). */
  page: number;
  /** Page size (the request's `per_page`; 10 when not given). */
  per_page: number;
  /** Number of pages: the last page's number. `page.hasNextPage()` is `page < pages`. */
  pages: number;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const NumberedPaginationSchema = z.looseObject({
  total: z.number(),
  page: z.number(),
  per_page: z.number(),
  pages: z.number(),
});

/** The wire pagination object of a page, as returned. */
export type Pagination = OffsetPagination | NumberedPagination;

/**
 * Reads a page's pagination as returned (never refusing it for not echoing the query): `at` is where
 * the page starts (its offset, or its page number); `next` is the query for the next page and where
 * an answer to it must start to be progress (`undefined`: the service says this is the last page, or
 * this page reaches `total`); `offset` is set when the list can be asked for any offset (v2 offset
 * style): the page's start, in items.
 */
export type PaginationStrategy<P extends Pagination> = (
  envelope: { data: Record<string, unknown>; body: Record<string, unknown> },
  query: Query,
  received: number,
  operation: string,
) => { pagination: P; at: number; offset?: number; next: { query: Query; at: number } | undefined };

/**
 * Page-style pagination at `source.pagination`: the next request carries `page` (after `paging`, the
 * other keys it sets) while `page < pages`.
 */
function numbered(
  source: Record<string, unknown>,
  prefix: string,
  query: Query,
  operation: string,
  paging?: Query,
): ReturnType<PaginationStrategy<NumberedPagination>> {
  const pagination = parseResponse(
    NumberedPaginationSchema,
    source.pagination,
    operation,
    `${prefix}pagination`,
  );
  const at = pagination.page + 1;
  return {
    pagination,
    at: pagination.page,
    next: pagination.page < pagination.pages ? { query: { ...query, ...paging, page: at }, at } : undefined,
  };
}

/**
 * v2: `data.pagination` with `has_more`; next offset = offset + items received. A page-style object
 * in its place (SPEC.md's short calls example) is tolerated: its `page < pages` decides, the next
 * request carries `page` as well as `offset` (a page-style service pages by `page`), and the page
 * gets the offset-style fields too, so `page.pagination.has_more` holds for every v2 page.
 */
export const offsetPages: PaginationStrategy<OffsetPagination> = ({ data }, query, received, operation) => {
  const raw = data.pagination as Record<string, unknown> | undefined;
  if (raw !== null && typeof raw === 'object' && !('has_more' in raw) && 'pages' in raw) {
    const offset = typeof query.offset === 'number' ? query.offset : 0;
    const read = numbered(data, 'data.', query, operation, { offset: offset + received });
    const { pagination } = read;
    return {
      ...read,
      pagination: { ...pagination, limit: pagination.per_page, offset, has_more: read.next !== undefined },
    };
  }
  const pagination = parseResponse(OffsetPaginationSchema, raw, operation, 'data.pagination');
  // `has_more` past `total` (a service that says it forever) is not followed.
  const at = pagination.offset + received;
  return {
    pagination,
    at: pagination.offset,
    offset: pagination.offset,
    next: pagination.has_more && at < pagination.total ? { query: { ...query, offset: at }, at } : undefined,
  };
};

/** v1: `pagination` beside `data` (inside `data` tolerated); next while `page < pages`. */
export const numberedPages: PaginationStrategy<NumberedPagination> = (
  { data, body },
  query,
  _received,
  operation,
) =>
  body.pagination === undefined && data.pagination !== undefined
    ? numbered(data, 'data.', query, operation)
    : numbered(body, '', query, operation);
