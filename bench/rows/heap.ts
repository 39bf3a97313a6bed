/** Row 5: live heap while iterating 200 pages × 100 calls, and the exact request count. */
import { median } from '../harness.js';
import { BENCH_TOKEN } from '../peers.js';
import { fmt, goal, type RowResult } from '../report.js';
import type { SdkModule } from '../sdk.js';
import { startBenchServer } from '../server.js';

const PAGES = 200;
const PER_PAGE = 100;
const TOTAL = PAGES * PER_PAGE;
const MB = 1024 * 1024;

interface CallPage {
  data: { calls: unknown[]; pagination: { has_more: boolean } };
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');
  gc();
  gc();
}

/**
 * Live heap right now: three full collections, each followed by a turn of the event loop, then a
 * last one. A request's AbortSignal is freed in steps that each need a collection *and* a later
 * task (undici's FinalizationRegistry drops the Request's abort listener, then Node drops the
 * signal from its set of signals with listeners), so one synchronous gc() counts the last requests'
 * garbage (≈ 1 MB here) against any client that passes a signal, and not against raw fetch.
 */
export async function liveHeap(): Promise<number> {
  for (let turn = 0; turn < 3; turn++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

async function* onePageAtATime(baseUrl: string): AsyncGenerator<unknown> {
  for (let offset = 0; offset < TOTAL + PER_PAGE; offset += PER_PAGE) {
    const res = await fetch(`${baseUrl}/v2/calls/recent?limit=${PER_PAGE}&offset=${offset}`, {
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    });
    const page = (await res.json()) as CallPage;
    yield* page.data.calls;
    if (!page.data.pagination.has_more) return;
  }
}

type Walk = (onItem: (count: number) => Promise<void>) => Promise<unknown>;

export async function heapRow(sdk: SdkModule | undefined): Promise<RowResult> {
  const server = await startBenchServer({ totalCalls: TOTAL });
  try {
    const walks: [string, Walk][] = [
      [
        'one-page async generator (floor)',
        async (onItem) => {
          let n = 0;
          for await (const _ of onePageAtATime(server.url)) await onItem(++n);
        },
      ],
      [
        'collect every call into an array',
        async (onItem) => {
          const all: unknown[] = [];
          for await (const call of onePageAtATime(server.url)) all.push(call);
          await onItem(all.length);
          return all;
        },
      ],
    ];
    if (sdk) {
      const client = new sdk.TelephonyClient({
        baseUrl: server.url,
        accessToken: BENCH_TOKEN,
        maxRetries: 0,
      });
      walks.push([
        'telephony-sdk for await calls.listRecent',
        async (onItem) => {
          let n = 0;
          for await (const _ of client.calls.listRecent({ limit: PER_PAGE })) await onItem(++n);
        },
      ]);
    }
    const samples = new Map<string, { live: number[]; requests: number[]; items: number[] }>(
      walks.map(([name]) => [name, { live: [], requests: [], items: [] }]),
    );
    // One unmeasured walk each first: the in-process server caches every page body it renders
    // (≈ 7 MB for 200 pages) and the first walk JIT-compiles; either would be billed to whichever
    // contender happened to walk first.
    for (const [, walk] of walks) await walk(async () => {});
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < walks.length; i++) {
        const [name, walk] = walks[(i + round) % walks.length]!;
        const before = server.counts.recent;
        const liveAtStart = await liveHeap();
        let liveAtEnd = 0;
        let items = 0;
        // The array is measured while it is still referenced; the streams at their last item.
        const kept = await walk(async (count) => {
          items = count;
          if (count === TOTAL) liveAtEnd = await liveHeap();
        });
        const sample = samples.get(name)!;
        sample.live.push(liveAtEnd - liveAtStart);
        sample.requests.push(server.counts.recent - before);
        sample.items.push(items);
        void kept;
      }
    }
    const rows = walks.map(([name]) => {
      const s = samples.get(name)!;
      return { name, live: median(s.live), requests: s.requests, items: s.items };
    });
    const floor = rows[0]!;
    const sdkRow = rows.find((r) => r.name.startsWith('telephony-sdk'));
    return {
      row: `5. live heap growth at the last item while iterating ${PAGES} pages × ${PER_PAGE} calls`,
      command: 'npm run bench -- heap',
      table: [
        ['contender', 'heap growth at last item', 'vs floor', 'requests per run', 'items per run'],
        ...rows.map((r) => [
          r.name,
          `${fmt(r.live / MB, 1)} MB`,
          `${r.live >= floor.live ? '+' : ''}${fmt((r.live - floor.live) / MB, 1)} MB`,
          r.requests.join('/'),
          r.items.join('/'),
        ]),
      ],
      goals: sdkRow
        ? [
            goal(
              '≤ generator + 1 MB',
              sdkRow.live <= floor.live + MB,
              `${sdkRow.live >= floor.live ? '+' : ''}${fmt((sdkRow.live - floor.live) / MB, 2)} MB`,
            ),
            goal(
              `exactly ${PAGES} requests and ${TOTAL} items per walk`,
              sdkRow.requests.every((n) => n === PAGES) && sdkRow.items.every((n) => n === TOTAL),
              `requests ${sdkRow.requests.join('/')}, items ${sdkRow.items.join('/')}`,
            ),
          ]
        : [goal('≤ generator + 1 MB, exactly 200 requests', null, 'telephony-sdk not built yet')],
      notes: [
        'heap growth = V8 heapUsed at the last item minus heapUsed before the walk, each after 3 × (gc(), one event-loop turn) + gc(); medians of 3 rotated rounds after one unmeasured walk each (server page cache, JIT)',
      ],
    };
  } finally {
    await server.close();
  }
}
