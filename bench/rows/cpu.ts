/** Row 2: client CPU per request over a stub fetch (no socket): µs added over fetch + json. */

import ky from 'ky';
import { recentCallsPage } from '../fixtures.js';
import { compare, type Measured } from '../harness.js';
import { BENCH_TOKEN } from '../peers.js';
import { fmt, goal, type RowResult } from '../report.js';
import type { SdkModule } from '../sdk.js';
import { listRecentContenders } from './list-recent.js';

const BASE = 'http://127.0.0.1:9';

const signed = (us: number) => `${us >= 0 ? '+' : '−'}${fmt(Math.abs(us), 1)} µs`;

export async function cpuRow(sdk: SdkModule | undefined, baseline?: SdkModule): Promise<RowResult> {
  const body = JSON.stringify(recentCallsPage(0, 100, 100));
  let fetches = 0;
  // A fresh Response per call, as a socket would give; nothing leaves the process.
  const stubFetch: typeof fetch = async () => {
    fetches++;
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const contenders = listRecentContenders(sdk, BASE, 'stub fetch + res.json() (floor)', stubFetch, baseline);
  // "ky alone" asks as a ky user writes it (prefixUrl, searchParams: ky then builds its Request twice);
  // this one sends the same request from a URL string, as the SDK does (one Request).
  const kyUrl = ky.create({
    retry: 0,
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    fetch: stubFetch,
  });
  contenders.splice(3, 0, {
    name: 'ky alone, URL string',
    run: () => kyUrl(`${BASE}/v2/calls/recent?limit=100`).json(),
  });
  const measured = await compare(contenders, { rounds: 11, runsPerRound: 300, warmupRuns: 100 });
  const floor = measured[0]!;
  const openai = measured.find((m) => m.name.startsWith('openai'))!;
  const kyAlone = measured.find((m) => m.name === 'ky alone')!;
  const sdkRow = measured.find((m) => m.name.startsWith('telephony-sdk'));
  const baselineRow = measured.find((m) => m.name.startsWith('baseline'));
  const added = (us: number) => us - floor.usPerOp;
  // What the SDK itself costs on top of ky (issue 17). Wall time on fastest rounds — the issue's
  // measure; and CPU time (median of rounds), which other processes on the machine do not inflate
  // but V8's own threads (GC, compiler) do.
  const aboveKy = (m: Measured) => m.bestUsPerOp - kyAlone.bestUsPerOp;
  const aboveKyCpu = (m: Measured) => m.cpuUsPerOp - kyAlone.cpuUsPerOp;
  return {
    row: '2. client CPU per request over a stub fetch (no socket, 100-call page)',
    command: 'npm run bench -- cpu',
    table: [
      [
        'contender',
        'µs/op',
        'added over floor',
        'vs openai added',
        'fastest round µs/op',
        'above ky alone (fastest)',
        'CPU µs/op',
        'above ky alone (CPU)',
      ],
      ...measured.map((m) => [
        m.name,
        fmt(m.usPerOp, 1),
        signed(added(m.usPerOp)),
        added(openai.usPerOp) > 0 ? `${(added(m.usPerOp) / added(openai.usPerOp)).toFixed(2)}×` : '-',
        fmt(m.bestUsPerOp, 1),
        signed(aboveKy(m)),
        fmt(m.cpuUsPerOp, 1),
        signed(aboveKyCpu(m)),
      ]),
    ],
    goals: [
      sdkRow
        ? goal(
            // Issue 17's measure: fastest rounds (one run's figure; the goal is the median of three
            // runs). CPU time is shown beside it: it also counts V8's GC and compiler threads.
            "the SDK's own cost above ky alone ≤ 30 µs (wall time, fastest rounds)",
            aboveKy(sdkRow) <= 30,
            `sdk ${signed(aboveKy(sdkRow))}${baselineRow ? `, baseline build ${signed(aboveKy(baselineRow))}` : ''}; CPU time, median of rounds: sdk ${signed(aboveKyCpu(sdkRow))}${baselineRow ? `, baseline build ${signed(aboveKyCpu(baselineRow))}` : ''}`,
          )
        : goal("the SDK's own cost above ky alone ≤ 30 µs", null, 'telephony-sdk not built yet'),
    ],
    notes: [`${fetches} stub fetches, no socket opened`],
  };
}
