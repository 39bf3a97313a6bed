/** Row 3: validating a 100-call page (`data` of GET /v2/calls/recent): µs per page. */

import { recentCallsPage } from '../fixtures.js';
import { compare } from '../harness.js';
import { miniJitLoosePage } from '../mini-jit.js';
import { classicLoosePage, classicStrictPage, miniLoosePage } from '../peers.js';
import { fmt, goal, type RowResult } from '../report.js';

type Validate = (data: unknown) => unknown;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isParty = (v: unknown) => isObject(v) && typeof v.number === 'string' && typeof v.name === 'string';

/** The floor: a hand-written guard of every documented field, no copies. */
export function handWrittenGuard(data: unknown): unknown {
  if (!isObject(data) || !Array.isArray(data.calls) || !isObject(data.pagination))
    throw new TypeError('page');
  for (const c of data.calls as unknown[]) {
    if (
      !isObject(c) ||
      typeof c.id !== 'string' ||
      typeof c.direction !== 'string' ||
      !isParty(c.from) ||
      !isParty(c.to) ||
      !Number.isInteger(c.duration) ||
      typeof c.status !== 'string' ||
      (c.recording_url !== null && typeof c.recording_url !== 'string') ||
      typeof c.notes !== 'string' ||
      !Array.isArray(c.tags) ||
      !(c.tags as unknown[]).every((t) => typeof t === 'string') ||
      typeof c.timestamp !== 'string'
    ) {
      throw new TypeError('call');
    }
  }
  const p = data.pagination;
  if (typeof p.total !== 'number' || typeof p.offset !== 'number' || typeof p.has_more !== 'boolean') {
    throw new TypeError('pagination');
  }
  return data;
}

/** `sdkValidate`: the SDK's own choke point applied to the page, when it exists. */
export async function validationRow(
  sdkValidate: { name: string; run: Validate } | undefined,
): Promise<RowResult> {
  const data = recentCallsPage(0, 100, 100).data;
  const contenders: { name: string; run: Validate }[] = [
    { name: 'hand-written guard (floor)', run: handWrittenGuard },
    { name: 'zod classic loose', run: (d) => classicLoosePage.parse(d) },
    { name: 'zod classic strict', run: (d) => classicStrictPage.parse(d) },
    { name: 'zod/mini loose', run: (d) => miniLoosePage.parse(d) },
    { name: 'zod/mini loose on core $ZodObjectJIT (proposal)', run: (d) => miniJitLoosePage.parse(d) },
  ];
  if (sdkValidate) contenders.push(sdkValidate);
  const measured = await compare(
    contenders.map((c) => ({ name: c.name, run: () => c.run(data) })),
    { rounds: 9, runsPerRound: 400, warmupRuns: 200 },
  );
  const floor = measured[0]!;
  const sdk = measured.find((m) => m.name.startsWith('telephony-sdk'));
  return {
    row: '3. response validation of a 100-call page',
    command: 'npm run bench -- validation',
    table: [
      ['contender', 'µs/page', 'vs floor'],
      ...measured.map((m) => [m.name, fmt(m.usPerOp, 1), `${(m.usPerOp / floor.usPerOp).toFixed(1)}× time`]),
    ],
    goals: [
      sdk
        ? goal('≤ 60 µs per page', sdk.usPerOp <= 60, `${fmt(sdk.usPerOp, 1)} µs`)
        : goal('≤ 60 µs per page', null, 'CallSchema of src/resources/calls.ts is not there yet'),
    ],
    notes: [],
  };
}
