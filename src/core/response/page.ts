import * as z from 'zod/mini';
import { TelephonyError } from '../errors.js';
import { paramNames, refuseNamed } from '../request/extra.js';
import { validateParams } from '../request/params.js';
import { operationName } from '../request/route.js';
import { nextCall } from '../tracing/traced-call.js';
import type { HttpMethod, RequestOptions, Transport } from '../types.js';
import { APIPromise, sendChecked, type WithResponse } from './api-promise.js';
import { unwrapSuccess } from './envelope.js';
import { parseResponse } from './guard.js';
import { startWalk, type Walk, walkOn } from './live-walk.js';
import type { Pagination, PaginationStrategy, Query } from './pagination.js';

/** A list endpoint, as a resource describes it. */
export interface ListSpec<Item extends z.core.$ZodType, P extends Pagination> {
  method: HttpMethod;
  path: string;
  query: { schema: z.core.$ZodType; value: unknown };
  /** Key of the item array in `data` (`calls`, `users`). */
  items: string;
  itemSchema: Item;
  pagination: PaginationStrategy<P>;
  /**
   * The list is newest first and grows at its front while it is walked (`calls/recent`): a walk then
   * yields each item that existed when it began once (`live-walk.ts`), telling items apart by `id`.
   */
  growsAtFront?: { id: (item: z.output<Item>) => string };
}

/**
 * One page of a list, and the way to the next one. `P` is the list's pagination object:
 * {@link OffsetPagination} for `calls.listRecent`, {@link NumberedPagination} for `users.list`.
 */
export class Page<T, P extends Pagination = Pagination> {
  /** The items of this page. */
  readonly items: T[];
  /** The wire pagination object, as returned. */
  readonly pagination: P;
  readonly #fetchNext: (() => PagePromise<T, P>) | undefined;

  constructor(items: T[], pagination: P, fetchNext: (() => PagePromise<T, P>) | undefined) {
    this.items = items;
    this.pagination = pagination;
    this.#fetchNext = fetchNext;
  }

  /**
   * `true` when another page follows: the service says so (`has_more` in v2, `page < pages` in v1),
   * this page is not empty, the items so far (from the first page awaited) are fewer than `total`
   * (in v2, `offset` + items too; for `calls.listRecent`, the calls that existed when the walk began),
   * and this page starts where it was asked to or further (a page that repeats or goes back has none).
   * `false` exactly when `for await` would stop after this page.
   */
  hasNextPage(): boolean {
    return this.#fetchNext !== undefined;
  }

  /** Fetches the next page with the same filters and request options; rejects on the last page. */
  getNextPage(): PagePromise<T, P> {
    return (
      this.#fetchNext?.() ??
      new PagePromise<T, P>(Promise.reject(new TelephonyError('No next page (check hasNextPage() first)')))
    );
  }
}

/**
 * A `Promise<Page<T>>` that is also `AsyncIterable<T>`. The first request starts at once;
 * `for await` walks every item of every page, holding one page at a time. Rejects (or throws
 * from the loop) with the same errors as any other call.
 *
 * @example
 * ```ts
 * const page = await client.calls.listRecent({ limit: 50 }); // one page
 * page.items; // Call[]
 * if (page.hasNextPage()) await page.getNextPage();
 *
 * for await (const call of client.calls.listRecent({ direction: 'inbound' })) {
 *   console.log(call.id); // every call, every page
 * }
 * ```
 */
export class PagePromise<T, P extends Pagination = Pagination>
  extends APIPromise<Page<T, P>>
  implements AsyncIterable<T>
{
  /**
   * Every item of every page, fetching one page at a time; no request is made past the last page.
   * A page that starts before where it was asked to (the service repeated a page or went back) ends
   * the iteration before its items: its start was already yielded.
   */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return iterate([this.then()]);
  }
}

// A free function, so the generator holds only the current page, not the PagePromise or earlier
// pages. The first page comes in an array that is emptied: a generator keeps its parameters for
// its whole life, so a plain parameter would hold the first page until the last (+0.2 MB measured
// for 100-call pages).
async function* iterate<T>(first: Array<Promise<Page<T, Pagination>>>): AsyncGenerator<T> {
  let page: Page<T, Pagination> | undefined = await first.pop();
  while (page !== undefined && !behind.has(page)) {
    yield* page.items;
    page = page.hasNextPage() ? await page.getNextPage() : undefined;
  }
}

/**
 * Pages fetched as a next page that start before where they were asked to: the service repeated a
 * page or went back. Such a page resolves as sent (it is what the service said) but has no next page,
 * and iteration ends before it. Ending quietly, not with an error: the service's own answer says
 * where the list is, as with an empty page (which ends iteration whatever the server says), and a
 * loop that issues no request past the point where the service stops advancing is what API.md asks.
 */
const behind = new WeakSet<Page<unknown, Pagination>>();

// One array schema per item schema: built per call, it would cost a zod construction and a guard
// compile on every list request.
const itemArrays = new WeakMap<z.core.$ZodType, z.core.$ZodType>();

function arrayOf(item: z.core.$ZodType): z.core.$ZodType {
  let array = itemArrays.get(item);
  if (array === undefined) {
    array = z.array(item);
    itemArrays.set(item, array);
  }
  return array;
}

/** Starts the first request of a list now and returns its `PagePromise`. */
export function listPages<Item extends z.core.$ZodType, P extends Pagination>(
  transport: Transport,
  spec: ListSpec<Item, P>,
  options?: RequestOptions,
): PagePromise<z.output<Item>, P> {
  type T = z.output<Item>;
  const operation = operationName(spec);
  // `via`: the transport the page is sent through (a next page's is bound to its own traced call);
  // `from`: where the answer must start (a next page); `before`: items of the pages before it;
  // `walk`: where a walk over a list that grows at its front stands (after its first page).
  const fetchPage = async (
    via: Transport,
    query: Query,
    from: number | undefined,
    before: number,
    walk: Walk | undefined,
  ): Promise<WithResponse<Page<T, P>>> => {
    // A typed parameter sent as an extra would skip its check (operation.ts does the same).
    if (options?.extraQuery)
      refuseNamed(options.extraQuery, paramNames(spec.query.schema), 'extraQuery', operation);
    // Checked within the call: an answer that fails the schema is that call's error (its attempts and id).
    const {
      data: { received, pagination, at, offset, next },
      ...answered
    } = await sendChecked(via, { method: spec.method, path: spec.path, query }, options, (answer) => {
      const envelope = unwrapSuccess(answer, operation);
      const received = parseResponse(
        arrayOf(spec.itemSchema),
        envelope.data[spec.items],
        operation,
        `data.${spec.items}`,
      ) as T[];
      return { received, ...spec.pagination(envelope, query, received.length, operation) };
    }).withResponse();
    const advanced = from === undefined || at >= from;
    let items = received;
    let here = walk;
    if (spec.growsAtFront && offset !== undefined && advanced) {
      const ids = received.map(spec.growsAtFront.id);
      if (walk === undefined) here = startWalk(pagination.total, offset, ids);
      else {
        const moved = walkOn(walk, pagination.total, offset, ids);
        if ('reread' in moved)
          return fetchPage(via, { ...query, offset: moved.reread }, moved.reread, before, moved.walk);
        items = moved.fresh.map((index) => received[index] as T);
        here = moved.walk;
      }
    }
    const seen = before + items.length;
    // An empty page, a page that repeats or goes back, and `total` reached end the list whatever the
    // server says: each would otherwise let a service keep the loop going forever. A walk counts
    // against the calls that existed when it began, not against a `total` that grows as calls arrive.
    const left = here === undefined ? seen < pagination.total : here.left > 0;
    const fetchNext =
      next !== undefined && advanced && items.length > 0 && left
        ? () =>
            new PagePromise(
              nextCall(via, (transport) => fetchPage(transport, next.query, next.at, seen, here)),
            )
        : undefined;
    const page = new Page(items, pagination, fetchNext);
    if (!advanced) behind.add(page);
    return { ...answered, data: page };
  };
  // Validated here, not in a default parameter: a refusal rejects the first page and nothing is sent.
  const first = async () => {
    const query = validateParams(spec.query.schema, spec.query.value ?? {}, operation) as Query;
    return fetchPage(transport, query, undefined, 0, undefined);
  };
  return new PagePromise(first());
}
