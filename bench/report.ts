/** Printing and collecting benchmark rows: every contender with its ratio to the floor and the peers. */
import type { Measured } from './harness.js';

export interface GoalCheck {
  goal: string;
  met: boolean | null;
  detail: string;
}

export interface RowResult {
  row: string;
  command: string;
  table: string[][];
  goals: GoalCheck[];
  notes: string[];
}

export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function ratio(value: number, floor: number): string {
  return `${(value / floor).toFixed(2)}×`;
}

/** Throughput table: ops/s, µs/op, ratio to the floor (the first contender) and to `peer`. */
export function throughputTable(measured: Measured[], peer?: string): string[][] {
  const floor = measured[0]!;
  const peerRow = peer ? measured.find((m) => m.name === peer) : undefined;
  const head = ['contender', 'ops/s', 'µs/op', 'vs floor'];
  if (peerRow) head.push(`vs ${peerRow.name}`);
  return [
    head,
    ...measured.map((m) => {
      const cells = [m.name, fmt(m.opsPerSec), fmt(m.usPerOp, 1), ratio(m.opsPerSec, floor.opsPerSec)];
      if (peerRow) cells.push(ratio(m.opsPerSec, peerRow.opsPerSec));
      return cells;
    }),
  ];
}

export function goal(goalText: string, met: boolean | null, detail: string): GoalCheck {
  return { goal: goalText, met, detail };
}

export function printRow(result: RowResult): void {
  console.log(`\n## ${result.row}\n   reproduce: ${result.command}`);
  const widths = result.table[0]!.map((_, col) =>
    Math.max(...result.table.map((r) => (r[col] ?? '').length)),
  );
  for (const [i, cells] of result.table.entries()) {
    console.log(
      `   ${cells.map((c, col) => (col === 0 ? c.padEnd(widths[col]!) : c.padStart(widths[col]!))).join('  ')}`,
    );
    if (i === 0) console.log(`   ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  }
  for (const g of result.goals) {
    const mark = g.met === null ? 'NOT MEASURED' : g.met ? 'MET' : 'UNMET';
    console.log(`   goal ${mark}: ${g.goal} — ${g.detail}`);
  }
  for (const note of result.notes) console.log(`   note: ${note}`);
}
