/**
 * A small, bounded benchmark harness: every contender runs a fixed number of operations per
 * round, in the same process, with the order rotated each round; the result is the median
 * over rounds, so slow drift of a shared machine hits every contender alike.
 */
import { performance } from 'node:perf_hooks';

export interface Contender {
  name: string;
  /** One unit of work; may return a promise. */
  run: () => unknown;
  /** Operations one `run` stands for (16 when it keeps 16 requests in flight). Default 1. */
  opsPerRun?: number;
}

export interface Measured {
  name: string;
  /** Median operations per second over the rounds. */
  opsPerSec: number;
  /** Median microseconds per operation. */
  usPerOp: number;
  /**
   * Microseconds per operation of the fastest round: the contender's cost with the least interference
   * from the rest of the machine, for comparing small differences between contenders.
   */
  bestUsPerOp: number;
  /**
   * Median CPU microseconds per operation (`process.cpuUsage()`, user + system, over the round): the
   * work done, whatever share of the cores the process got. On a machine that other processes load,
   * wall time counts the time the process waited for a core; CPU time does not.
   */
  cpuUsPerOp: number;
  /** CPU microseconds per operation of the round that used the least. */
  bestCpuUsPerOp: number;
}

export interface CompareOptions {
  rounds: number;
  /** `run` calls per contender per round (bounded, never time-based). */
  runsPerRound: number;
  /** Untimed `run` calls per contender before the first round (JIT, connections, key import). */
  warmupRuns?: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Runs `count` calls of `run`, awaiting only when `run` is asynchronous; returns elapsed and CPU ms. */
async function timeRuns(run: () => unknown, count: number): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const result = run();
    if (isThenable(result)) await result;
  }
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  return { ms, cpuMs: (user + system) / 1000 };
}

export async function compare(contenders: Contender[], options: CompareOptions): Promise<Measured[]> {
  for (const contender of contenders) await timeRuns(contender.run, options.warmupRuns ?? 3);
  const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const cpuSamples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
    for (const contender of order) {
      const { ms, cpuMs } = await timeRuns(contender.run, options.runsPerRound);
      const ops = options.runsPerRound * (contender.opsPerRun ?? 1);
      samples.get(contender.name)!.push(ops / (ms / 1000));
      cpuSamples.get(contender.name)!.push((cpuMs * 1000) / ops);
    }
  }
  return contenders.map(({ name }) => {
    const opsPerSec = median(samples.get(name)!);
    const cpu = cpuSamples.get(name)!;
    return {
      name,
      opsPerSec,
      usPerOp: 1e6 / opsPerSec,
      bestUsPerOp: 1e6 / Math.max(...samples.get(name)!),
      cpuUsPerOp: median(cpu),
      bestCpuUsPerOp: Math.min(...cpu),
    };
  });
}
