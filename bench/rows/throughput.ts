/** Row 1: `calls.listRecent({ limit: 100 })` against a local keep-alive server, 1 and 16 in flight. */
import { compare, type Measured } from '../harness.js';
import { recentCallsContenders } from '../peers.js';
import { goal, type RowResult, throughputTable } from '../report.js';
import type { SdkModule } from '../sdk.js';
import { spawnBenchServer } from '../server.js';
import { listRecentContenders } from './list-recent.js';

const IN_FLIGHT = 16;

function inFlight(run: () => Promise<unknown>, n: number): () => Promise<unknown> {
  return () => Promise.all(Array.from({ length: n }, run));
}

export async function throughputRows(sdk: SdkModule | undefined, baseline?: SdkModule): Promise<RowResult[]> {
  const server = await spawnBenchServer({ totalCalls: 100 });
  try {
    const base = listRecentContenders(sdk, server.url, 'raw fetch + res.json() (floor)', undefined, baseline);
    const page = await recentCallsContenders(server.url).floor();
    const pageBytes = JSON.stringify({ status: 'success', data: page }).length;
    const sequential = await compare(base, { rounds: 15, runsPerRound: 100, warmupRuns: 100 });
    const parallel = await compare(
      base.map((c) => ({
        ...c,
        run: inFlight(c.run as () => Promise<unknown>, IN_FLIGHT),
        opsPerRun: IN_FLIGHT,
      })),
      { rounds: 15, runsPerRound: 8, warmupRuns: 6 },
    );
    return [
      rowResult('1 in flight', sequential, pageBytes),
      rowResult(`${IN_FLIGHT} in flight`, parallel, pageBytes),
    ];
  } finally {
    server.close();
  }
}

function rowResult(mode: string, rows: Measured[], pageBytes: number): RowResult {
  const floor = rows[0]!.opsPerSec;
  const sdk = rows.find((m) => m.name.startsWith('telephony-sdk'));
  const openai = rows.find((m) => m.name.startsWith('openai'))!;
  const goals = [
    sdk
      ? goal(
          'at least openai-node in the same run',
          sdk.opsPerSec >= openai.opsPerSec,
          `sdk ${(sdk.opsPerSec / floor).toFixed(2)}× vs openai ${(openai.opsPerSec / floor).toFixed(2)}× raw fetch`,
        )
      : goal(
          'at least openai-node in the same run',
          null,
          'telephony-sdk not built yet (dist has no TelephonyClient)',
        ),
  ];
  return {
    row: `1. calls.listRecent({ limit: 100 }) req/s, ${mode} (node:http keep-alive server in its own process, ${(pageBytes / 1000).toFixed(1)} KB page)`,
    command: 'npm run bench -- throughput',
    table: throughputTable(rows, 'openai-node client.get'),
    goals,
    notes: [],
  };
}
