import { runScript } from './child.js';
import type { CallOutcome, WorkerConfig, WorkerResult } from './fleet-worker.js';

/** A forked fleet process (fleet-worker.ts), as a test drives it. */
export interface FleetProcess {
  /** Resolves once it is connected to Redis and waits for its start signal. */
  readonly ready: Promise<unknown>;
  /** Starts its next burst that waits for a line on stdin. */
  go(): void;
  /** Resolves once it has started burst `index` (its calls are on their way). */
  started(index: number): Promise<unknown>;
  /** Resolves once an open-loop burst (`every`) has started its call `index` (counted from 0). */
  called(index: number): Promise<unknown>;
  /** The outcomes of burst `index`, once every call of it has settled. */
  done(index: number): Promise<CallOutcome[]>;
  /** Its result, once it has exited; rejects with its output if it failed. */
  result(): Promise<WorkerResult>;
}

/** Forks one fleet process with `config` (see fleet-worker.ts). */
export function forkFleetProcess(config: WorkerConfig): FleetProcess {
  const worker = runScript('test/integration/fleet-worker.ts', [JSON.stringify(config)]);
  const line = (stdout: string, prefix: string) =>
    stdout
      .split('\n')
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length);
  return {
    ready: worker.printed('READY'),
    go: () => worker.child.stdin?.write('go\n'),
    started: (index) => worker.printed(`STARTED ${index}\n`),
    called: (index) => worker.printed(`\nCALLED ${index}\n`),
    done: async (index) => {
      const prefix = `DONE ${index} `;
      const stdout = await worker.printed(prefix);
      // The line is printed in one write: once the prefix is there, so is the rest of it.
      return JSON.parse(line(stdout, prefix) ?? '') as CallOutcome[];
    },
    result: async () => {
      const [code] = await worker.exited;
      const { stdout, stderr } = worker.output();
      const json = line(stdout, 'RESULT ');
      if (code !== 0 || json === undefined)
        throw new Error(`fleet worker exited ${code}:\n${stdout}${stderr}`);
      return JSON.parse(json) as WorkerResult;
    },
  };
}
