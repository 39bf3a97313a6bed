/**
 * Row 7: heap growth when one long-lived caller AbortSignal is passed to every call (a worker's
 * shutdown signal). Node 20's `AbortSignal.any` keeps a dead dependant per call in the source
 * signal, so a client that combines signals that way grows without end (issue 10, defect 11).
 */
import { BENCH_TOKEN } from '../peers.js';
import { fmt, goal, type RowResult } from '../report.js';
import type { SdkModule } from '../sdk.js';
import { liveHeap } from './heap.js';

const CALLS = 60_000;
const WARMUP = 2_000;
const MB = 1024 * 1024;
const BODY = JSON.stringify({ status: 'success', data: {} });

async function growth(sdk: SdkModule): Promise<number> {
  const stubFetch: typeof fetch = async () =>
    new Response(BODY, { headers: { 'content-type': 'application/json' } });
  const client = new sdk.TelephonyClient({
    baseUrl: 'http://127.0.0.1:9',
    accessToken: BENCH_TOKEN,
    fetch: stubFetch,
  });
  const signal = new AbortController().signal;
  const call = () => client.request({ method: 'GET', path: '/v2/x' }, { signal });
  for (let i = 0; i < WARMUP; i++) await call();
  const before = await liveHeap();
  for (let i = 0; i < CALLS; i++) await call();
  const after = await liveHeap();
  // The signal stays reachable to the end, as in a worker that keeps it for its whole life.
  void signal.aborted;
  return (after - before) / MB;
}

export async function signalHeapRow(sdk: SdkModule | undefined, baseline?: SdkModule): Promise<RowResult> {
  const rows: [string, number][] = [];
  if (baseline) rows.push(['baseline build', await growth(baseline)]);
  const measured = sdk ? await growth(sdk) : undefined;
  if (measured !== undefined) rows.push(['telephony-sdk', measured]);
  return {
    row: `7. heap growth over ${fmt(CALLS)} calls sharing one long-lived AbortSignal (stub fetch)`,
    command: 'npm run bench -- signal',
    table: [['contender', 'heap growth'], ...rows.map(([name, mb]) => [name, `${fmt(mb, 2)} MB`])],
    goals: [
      measured === undefined
        ? goal('flat: ≤ 0.5 MB', null, 'telephony-sdk not built yet')
        : goal('flat: ≤ 0.5 MB', measured <= 0.5, `${fmt(measured, 2)} MB`),
    ],
    notes: [],
  };
}
