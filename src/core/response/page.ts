import * as z from 'zod/mini';
import { sendChecked } from '../checked-send.js';
import { TelephonyError } from '../errors.js';
import { operationName } from '../request/method.js';
import { validateParams } from '../request/params.js';
import { nextCall } from '../tracing/traced-call.js';
import type { HttpMethod, RequestOptions, Transport } from '../types.js';
import { unwrapSuccess } from './envelope.js';
import { parseResponse } from './guard.js';
import type { Pagination, PaginationStrategy, Query } from './pagination.js';

/** A list endpoint, as a resource describes it. */
export interface ListSpec<
  Item extends z.core.$ZodType,
  P extends Pagination,
  Variant extends z.core.$ZodType = Item,
> {
  method: HttpMethod;
  path: string;
  query: { schema: z.core.$ZodType; value: unknown };
  /** Key of the item array in `data` (`calls`, `users`). */
  items: string;
  itemSchema: Item;
  /**
   * A documented second form of the items (SPEC.md's short calls). `rewrite` answers true for an
   * item in that form, having turned it into `schema`'s shape in place, and the item is checked
   * against `schema`; every other item is checked against `itemSchema`, as strictly as ever.
   */
  variant?: { schema: Variant; rewrite: (item: unknown) => boolean };
  pagination: PaginationStrategy<P>;
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
   * (in v2, `offset` + items too), and this page starts where it was asked to or further (a page that
   * repeats or goes back has none). `false` exactly when `for await` would stop after this page.
   */
  hasNextPage(): boolean {
    return this.#fetchNext !== undefined;
  }

  /** Fetches the next page with the same filters and request options; rejects on the last page. */
  getNextPage(): PagePromise<T, P> {
    return (
      this.#fetchNext?.() ??
      new PagePromise(Promise.reject(new TelephonyError('No next page (check hasNextPage() first)')))
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
  extends Promise<Page<T, P>>
  implements AsyncIterable<T>
{
  readonly #page: Promise<Page<T, P>>;

  constructor(page: Promise<Page<T, P>>) {
    super((resolve) => resolve(undefined as unknown as Page<T, P>));
    this.#page = page;
  }

  /** `Promise`: promises derived with `then`/`catch`/`finally` are plain promises, not `PagePromise`s. */
  static override get [Symbol.species]() {
    return Promise;
  }

  // `catch` and `finally` are Promise's own: both call `then`, so they reach the page too.
  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is a promise by design (API.md).
  override then<A = Page<T, P>, B = never>(
    onFulfilled?: ((page: Page<T, P>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#page.then(onFulfilled, onRejected);
  }

  /**
   * Every item of every page, fetching one page at a time; no request is made past the last page.
   * A page that starts before where it was asked to (the service repeated a page or went back) ends
   * the iteration before its items: its start was already yielded.
   */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return iterate([this.#page]);
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

/**
 * The items of a page, checked: the whole array at once, or one by one when some are in the
 * variant form (each against its own form's schema, so neither form loosens the other).
 */
function checkItems<Item extends z.core.$ZodType, Variant extends z.core.$ZodType>(
  { items, itemSchema, variant }: ListSpec<Item, Pagination, Variant>,
  raw: unknown,
  operation: string,
): Array<z.output<Item> | z.output<Variant>> {
  const inVariant = variant && Array.isArray(raw) ? raw.map(variant.rewrite) : [];
  return inVariant.includes(true)
    ? (raw as unknown[]).map((item, index) =>
        parseResponse(
          inVariant[index] && variant ? variant.schema : itemSchema,
          item,
          operation,
          `data.${items}.${index}`,
        ),
      )
    : (parseResponse(arrayOf(itemSchema), raw, operation, `data.${items}`) as z.output<Item>[]);
}

/** Starts the first request of a list now and returns its `PagePromise`. */
export function listPages<
  Item extends z.core.$ZodType,
  P extends Pagination,
  Variant extends z.core.$ZodType = Item,
>(
  transport: Transport,
  spec: ListSpec<Item, P, Variant>,
  options?: RequestOptions,
): PagePromise<z.output<Item> | z.output<Variant>, P> {
  type T = z.output<Item> | z.output<Variant>;
  const operation = operationName(spec);
  // `via`: the transport the page is sent through (a next page's is bound to its own traced call);
  // `query`: the checked params for the first page (a refusal rejects it, nothing sent), else the
  // next page's; `from`: where the answer must start (a next page); `before`: items of the pages before it.
  const fetchPage = async (
    via: Transport,
    query = validateParams(spec.query.schema, spec.query.value ?? {}, operation) as Query,
    from?: number,
    before = 0,
  ): Promise<Page<T, P>> => {
    // Checked within the call: an answer that fails the schema is that call's error (its attempts and id).
    const { items, pagination, at, next } = await sendChecked(
      via,
      { method: spec.method, path: spec.path, query },
      options,
      (answer) => {
        const envelope = unwrapSuccess(answer, operation);
        const items = checkItems(spec, envelope.data[spec.items], operation);
        return { items, ...spec.pagination(envelope, query, items.length, operation) };
      },
    );
    const seen = before + items.length;
    const advanced = from === undefined || at >= from;
    // An empty page, a page that repeats or goes back, and `total` reached end the list whatever the
    // server says: each would otherwise let a service keep the loop going forever.
    const fetchNext =
      next !== undefined && advanced && items.length > 0 && seen < pagination.total
        ? () => new PagePromise(nextCall(via, (transport) => fetchPage(transport, next.query, next.at, seen)))
        : undefined;
    const page = new Page(items, pagination, fetchNext);
    if (!advanced) behind.add(page);
    return page;
  };
  return new PagePromise(fetchPage(transport));
}
