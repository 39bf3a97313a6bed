/**
 * `npm run bench` (builds first): every row of issue 5's table, contenders side by side in one
 * process, rounds with rotated order, medians and ratios. `npm run bench -- <row> …` runs some
 * rows only (throughput, cpu, logs, validation, webhooks, heap, token, signal,
 * fleet, fleet-faults, pacing-cost, coldstart, hostile, coverage, call-life, receiver). Results are also saved as
 * JSON under bench/results/ (gitignored).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printRow, type RowResult } from './report.js';
import { callLifeRows } from './rows/call-life.js';
import { coldStartRows } from './rows/coldstart.js';
import { coverageRow } from './rows/coverage.js';
import { cpuRow } from './rows/cpu.js';
import { fleetRows } from './rows/fleet.js';
import { fleetFaultRows } from './rows/fleet-faults.js';
import { heapRow } from './rows/heap.js';
import { hostileRow } from './rows/hostile.js';
import { logsRow } from './rows/logs.js';
import { pacingCostRow } from './rows/pacing-cost.js';
import { receiverRows } from './rows/receiver.js';
import { signalHeapRow } from './rows/signal-heap.js';
import { throughputRows } from './rows/throughput.js';
import { tokenRow } from './rows/token.js';
import { validationRow } from './rows/validation.js';
import { webhookRows } from './rows/webhooks.js';
import { loadBaselineSdk, loadSdk, loadSdkRedis, loadSdkTesting, loadSdkWebhooks } from './sdk.js';
import { loadSdkPageValidator } from './sdk-schema.js';

const rows: Record<string, () => Promise<RowResult[]>> = {
  throughput: async () => throughputRows(await loadSdk(), await loadBaselineSdk()),
  cpu: async () => [await cpuRow(await loadSdk(), await loadBaselineSdk())],
  logs: async () => [await logsRow(await loadSdk())],
  validation: async () => [await validationRow(await loadSdkPageValidator())],
  webhooks: async () => webhookRows(await loadSdkWebhooks()),
  heap: async () => [await heapRow(await loadSdk())],
  token: async () => [await tokenRow(await loadSdk())],
  signal: async () => [await signalHeapRow(await loadSdk(), await loadBaselineSdk())],
  fleet: async () => fleetRows(await loadSdkTesting()),
  'fleet-faults': async () =>
    fleetFaultRows(await loadSdkTesting(), await loadSdk(), await loadBaselineSdk()),
  'pacing-cost': async () => [await pacingCostRow(await loadSdk(), await loadSdkRedis())],
  coldstart: coldStartRows,
  hostile: async () => [await hostileRow()],
  coverage: async () => [coverageRow()],
  'call-life': callLifeRows,
  receiver: receiverRows,
};

const wanted = process.argv.slice(2).filter((arg) => arg in rows);
const selected = wanted.length > 0 ? wanted : Object.keys(rows);
console.log(`telephony-sdk benchmarks — Node ${process.version}, ${new Date().toISOString()}`);
if (!(await loadSdk())) console.log('note: dist/ has no TelephonyClient yet; SDK contenders are left out.');

const results: RowResult[] = [];
for (const name of selected) {
  for (const result of await rows[name]!()) {
    printRow(result);
    results.push(result);
  }
}

const dir = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(file, JSON.stringify({ node: process.version, results }, null, 2));
console.log(`\nsaved ${file}`);
