/**
 * The cost of a logger: client CPU per `calls.listRecent` over a stub fetch (no socket), with no
 * logger, with `logLevel: 'info'` and `'debug'` to a sink that drops each line, and with a real pino
 * logger at debug writing its JSON to a stream that drops it — beside ky alone, in the same rounds.
 * The request is row 2's (bench/rows/cpu.ts) with a 10-call page: a logger's cost does not grow with
 * the page, and a smaller page leaves less of the round to the noise of a loaded machine.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { recentCallsPage } from '../fixtures.js';
import { type Contender, compare, median } from '../harness.js';
import { BENCH_TOKEN, recentCallsContenders } from '../peers.js';
import { fmt, goal, type RowResult } from '../report.js';
import type { SdkModule } from '../sdk.js';

const BASE = 'http://127.0.0.1:9';
const ROUNDS = 41;
const RUNS_PER_ROUND = 100;

const signed = (us: number) => `${us >= 0 ? '+' : '−'}${fmt(Math.abs(us), 1)} µs`;

/** Drops every line: what the SDK does to build and redact a line, without any logger's own work. */
const noop = () => {};
const sink = { debug: noop, info: noop, warn: noop, error: noop };

/** A pino logger as a user sets one up, its output thrown away after pino has serialized it. */
function pinoToNull() {
  const stream = new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
  return pino({ level: 'debug' }, stream);
}

export async function logsRow(sdk: SdkModule | undefined): Promise<RowResult> {
  const body = JSON.stringify(recentCallsPage(0, 10, 10));
  let fetches = 0;
  // A fresh Response per call, as a socket would give; nothing leaves the process.
  const stubFetch: typeof fetch = async () => {
    fetches++;
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const peers = recentCallsContenders(BASE, stubFetch);
  const contenders: Contender[] = [
    { name: 'stub fetch + res.json() (floor)', run: peers.floor },
    { name: 'ky alone', run: peers.ky },
  ];
  const clients: Array<[string, Record<string, unknown>]> = [
    ['no logger', {}],
    // The control: the same path as no logger (nothing is logged), so what it reads is the method's noise.
    ["logLevel 'off', no-op sink (control)", { logger: sink, logLevel: 'off' }],
    ["logLevel 'info', no-op sink", { logger: sink, logLevel: 'info' }],
    ["logLevel 'debug', no-op sink", { logger: sink, logLevel: 'debug' }],
    ["logLevel 'debug', pino to a null stream", { logger: pinoToNull(), logLevel: 'debug' }],
  ];
  if (sdk) {
    for (const [name, options] of clients) {
      const client = new sdk.TelephonyClient({
        baseUrl: BASE,
        accessToken: BENCH_TOKEN,
        fetch: stubFetch,
        ...options,
      });
      contenders.push({ name: `telephony-sdk, ${name}`, run: () => client.calls.listRecent({ limit: 100 }) });
    }
  }
  // One round at a time through the shared harness, the order rotated each round, so each SDK
  // client's cost is read against the client without a logger in the same round: a loaded machine
  // slows whole rounds, and a difference within a round survives that. (A collected heap before
  // each sample was tried: it tripled every figure and left the control's noise as large.)
  await compare(contenders, { rounds: 1, runsPerRound: 200, warmupRuns: 0 });
  const cpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length] as Contender);
    for (const m of await compare(order, { rounds: 1, runsPerRound: RUNS_PER_ROUND, warmupRuns: 0 }))
      cpu.get(m.name)?.push(m.cpuUsPerOp);
  }
  const samples = (name: string) => cpu.get(name) ?? [];
  const bareName = contenders.find((c) => c.name.endsWith(', no logger'))?.name;
  // Per round, the contender minus a reference measured in that round; the median of those.
  const above = (name: string, reference: string | undefined) => {
    const base = reference === undefined ? [] : samples(reference);
    const diffs = samples(name).map((us, round) => us - (base[round] ?? Number.NaN));
    return reference === undefined || name === reference ? undefined : median(diffs);
  };
  const cell = (us: number | undefined) => (us === undefined ? '-' : signed(us));
  const cost = (suffix: string) => {
    const name = contenders.find((c) => c.name.endsWith(suffix))?.name;
    return name === undefined ? undefined : above(name, bareName);
  };
  const debugSink = cost("'debug', no-op sink");
  const debugPino = cost('pino to a null stream');
  return {
    row: 'logs. the cost of a logger: client CPU per listRecent over a stub fetch (no socket, 10-call page)',
    command: 'npm run bench -- logs',
    table: [
      ['contender', 'CPU µs/op', 'above ky alone', 'above no logger'],
      ...contenders.map(({ name }) => [
        name,
        fmt(median(samples(name)), 1),
        cell(above(name, 'ky alone')),
        name.startsWith('telephony-sdk') ? cell(above(name, bareName)) : '-',
      ]),
    ],
    goals: [
      debugSink !== undefined && debugPino !== undefined
        ? goal(
            'the cost of a debug logger per call, measured (docs/debugging.md says it)',
            true,
            `CPU above no logger, median of ${ROUNDS} paired rounds: debug to a no-op sink ${signed(debugSink)}, to pino ${signed(debugPino)}`,
          )
        : goal('the cost of a debug logger per call', null, 'telephony-sdk not built yet'),
    ],
    notes: [
      `${fetches} stub fetches, no socket opened; one attempt per call: one debug line and one info line`,
      "CPU time (process.cpuUsage: V8's GC and compiler threads count, other processes do not), median of rounds",
    ],
  };
}
