/**
 * A walk over a list that is newest first, paged by offset and grows at its front while it is walked
 * (`calls/recent`): each call that arrives pushes every older call one place down, so a plain
 * `offset + received` would yield the last calls of a page again at the start of the next. The walk
 * counts the arrivals from `total` (a list that only grows at its front grows its `total` by as much)
 * and skips as many calls at the start of the next page: every call that existed when the walk began
 * is yielded once, and memory stays one page (the ids of the last page yielded, a second guard).
 */

/** Where a walk stands after a page. */
export interface Walk {
  /** `total` of the first page: the calls that existed when the walk began. */
  readonly total: number;
  /** Calls that arrived between the first answer and the last one read. */
  readonly arrived: number;
  /** Calls of the walk not yielded yet: the walk ends when none is left. */
  readonly left: number;
  /** Ids of the last page yielded, none of which is yielded again (a set made only when a next page comes). */
  readonly lastIds: readonly string[];
  /** Pages read again in a row because the list moved by more than a page between two requests. */
  readonly rereads: number;
}

/**
 * Reads of one page in a row: a list that moves by a whole page at every request cannot be walked, and
 * the walk ends there rather than asking forever.
 */
const MAX_REREADS = 3;

/** A walk after its first page, which starts at `at` (the caller's offset). */
export function startWalk(total: number, at: number, ids: string[]): Walk {
  return { total, arrived: 0, left: total - at - ids.length, lastIds: ids, rereads: 0 };
}

/**
 * The next page of a walk, answered at `at` with `total` and items of these `ids`: which of its items
 * to yield (`fresh`, indices into the page), or the offset to ask again at when the list moved past
 * the whole page (or shrank, which would skip calls) since the previous answer.
 */
export function walkOn(
  walk: Walk,
  total: number,
  at: number,
  ids: string[],
): { walk: Walk; reread: number } | { walk: Walk; fresh: number[] } {
  const arrived = total - walk.total;
  // The calls that arrived since the previous answer sit before this page, so as many calls at its
  // start were yielded already.
  const skip = arrived - walk.arrived;
  if ((skip < 0 || (skip >= ids.length && ids.length > 0)) && walk.rereads < MAX_REREADS) {
    return { walk: { ...walk, arrived, rereads: walk.rereads + 1 }, reread: Math.max(0, at + skip) };
  }
  const fresh: number[] = [];
  const yielded = new Set(walk.lastIds);
  for (let index = Math.max(0, skip); index < ids.length; index++) {
    if (!yielded.has(ids[index] as string)) fresh.push(index);
  }
  const lastIds = fresh.map((index) => ids[index] as string);
  return { walk: { total: walk.total, arrived, left: walk.left - fresh.length, lastIds, rereads: 0 }, fresh };
}
