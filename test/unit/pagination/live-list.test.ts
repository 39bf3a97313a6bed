import { describe, expect, it } from 'vitest';
import { listCall } from '../../fixtures/calls.js';
import { testClient, tokenHandler } from '../../helpers/client.js';
import { recentCallsHandler } from '../../helpers/recent-calls.js';
import { server } from '../../helpers/server.js';

/**
 * `calls/recent` as the service serves it: newest first, paged by offset, `total` counting every call.
 * `arrive(n)` places n new calls at the front, as calls arriving mid-walk do; `perRequest` calls arrive
 * just before each answer; `countsArrivals: false` keeps `total` at its first value (a lagging count).
 */
function movingList(initial: number, { countsArrivals = true, perRequest = 0 } = {}) {
  const calls: string[] = [];
  let next = 0;
  const arrive = (count: number) => {
    for (let i = 0; i < count; i++) calls.unshift(`call_${next++}`);
  };
  arrive(initial);
  const initialTotal = calls.length;
  const remove = (ids: string[]) => {
    for (const id of ids) calls.splice(calls.indexOf(id), 1);
  };
  const requests: URLSearchParams[] = [];
  server.use(
    tokenHandler(),
    recentCallsHandler(
      () => calls,
      (id) => listCall(id),
      {
        total: () => (countsArrivals ? calls.length : initialTotal),
        onRequest: (query) => {
          requests.push(query);
          arrive(perRequest);
        },
      },
    ),
  );
  return { arrive, remove, requests, existing: new Set(calls) };
}

/** Duplicates, and calls of the walk's start not yielded. */
function tally(yielded: string[], existing: Set<string>) {
  const distinct = new Set(yielded);
  return {
    duplicates: yielded.length - distinct.size,
    missing: [...existing].filter((id) => !distinct.has(id)).length,
    newcomers: [...distinct].filter((id) => !existing.has(id)).length,
  };
}

describe('for await over calls.listRecent while calls arrive', () => {
  it('one arrival per 2 items yielded: every call of the start once, none that arrived', async () => {
    const list = movingList(1000);
    const yielded: string[] = [];
    for await (const call of testClient().calls.listRecent({ limit: 100 })) {
      yielded.push(call.id);
      if (yielded.length % 2 === 0) list.arrive(1);
    }
    expect(tally(yielded, list.existing)).toEqual({ duplicates: 0, missing: 0, newcomers: 0 });
    expect(yielded).toHaveLength(1000);
    // The calls that arrived while a page was yielded are skipped at the start of the next one (no
    // request of its own), so pages yield fewer calls: 15 requests for 10 pages' worth.
    expect(list.requests).toHaveLength(15);
  });

  it('bursts larger than a page: the page that moved past is asked again at the right offset', async () => {
    const list = movingList(60);
    const yielded: string[] = [];
    for await (const call of testClient().calls.listRecent({ limit: 10 })) {
      yielded.push(call.id);
      if (yielded.length % 10 === 0) list.arrive(yielded.length === 20 ? 35 : 3);
    }
    expect(tally(yielded, list.existing)).toEqual({ duplicates: 0, missing: 0, newcomers: 0 });
    expect(yielded).toHaveLength(60);
    // The burst of 35 (while the page at 20 was yielded) moved the page at 30 past itself: it is asked
    // again 35 places further, at 65; every other page skips the 3 arrivals at its start.
    const offsets = list.requests.map((query) => query.get('offset'));
    expect(offsets).toEqual([null, '10', '20', '30', '65', '75', '85', '95', '105']);
  });

  it('a chain of getNextPage() yields the same set as for await', async () => {
    const list = movingList(25);
    const client = testClient();
    let page = await client.calls.listRecent({ limit: 10 });
    const yielded = page.items.map((call) => call.id);
    for (;;) {
      list.arrive(4);
      if (!page.hasNextPage()) break;
      page = await page.getNextPage();
      yielded.push(...page.items.map((call) => call.id));
    }
    expect(tally(yielded, list.existing)).toEqual({ duplicates: 0, missing: 0, newcomers: 0 });
    expect(yielded).toHaveLength(25);
  });

  it('a list that loses calls already yielded is read again further up, so no call is skipped', async () => {
    const list = movingList(30);
    const yielded: string[] = [];
    for await (const call of testClient().calls.listRecent({ limit: 10 })) {
      yielded.push(call.id);
      if (yielded.length === 10) list.remove(['call_29', 'call_28']);
    }
    expect(tally(yielded, list.existing)).toEqual({ duplicates: 0, missing: 0, newcomers: 0 });
    // Offset 10 would now start two calls late: the page is asked again at 8.
    expect(list.requests.map((query) => query.get('offset'))).toEqual([null, '10', '8', '18']);
  });

  it("a service whose total lags behind its arrivals: the last page's ids keep its calls from coming twice", async () => {
    const list = movingList(30, { countsArrivals: false });
    const yielded: string[] = [];
    for await (const call of testClient().calls.listRecent({ limit: 10 })) {
      yielded.push(call.id);
      if (yielded.length % 10 === 0) list.arrive(4);
    }
    const { duplicates, newcomers } = tally(yielded, list.existing);
    expect({ duplicates, newcomers }).toEqual({ duplicates: 0, newcomers: 0 });
  });

  it('a list that moves past every page it is asked for is read again 3 times, then the walk ends', async () => {
    const list = movingList(30, { perRequest: 10 });
    const yielded: string[] = [];
    for await (const call of testClient().calls.listRecent({ limit: 10 })) yielded.push(call.id);
    expect(new Set(yielded).size).toBe(10);
    expect(list.requests.map((query) => query.get('offset'))).toEqual([null, '10', '20', '30', '40']);
  });
});
