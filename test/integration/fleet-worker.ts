// One process of a fleet (test/integration/fleet.test.ts, fleet-faults.test.ts): a TelephonyClient
// sharing its state through its own Redis connection, imported as a user imports the SDK. Run as
//   node --import tsx test/integration/fleet-worker.ts '<json config>'
// It connects, prints READY, blocks on BLPOP of the start list (so every process of the fleet starts
// its calls at the same moment), makes its calls concurrently, prints RESULT <json> and exits. With
// bursts after the first (`later`), or without a start list, each burst starts on a line on stdin,
// which the test writes when the burst is due (after a fault it caused, say); the worker prints
// `STARTED <i>` as it starts burst i and `DONE <i> <json outcomes>` when it has settled. An open-loop
// burst (`every`) starts its calls at a fixed pace instead of all at once.
// TELEPHONY_SDK_DIST=<dir> runs another build of the package (an earlier commit's dist/) instead,
// to show that a test fails there; bench/sdk.ts reads the same variable.
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RateLimit } from 'telephony-sdk';
import type { RedisConnection } from 'telephony-sdk/redis';

export interface WorkerConfig {
  driver: 'node-redis' | 'ioredis';
  redisUrl: string;
  /** The list to BLPOP before the first burst (one element per worker, pushed by the test); none: a line on stdin. */
  startList?: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Calls of the first burst, made concurrently. */
  calls: number;
  /** Calls of each further burst, each started by a line on stdin. */
  later?: number[];
  rateLimit: RateLimit;
  maxRetryAfter: number;
  /** The client's `timeout` (ms per attempt, the bound of its store calls too); default the SDK's. */
  timeout?: number;
  /** The Redis client fails commands at once while disconnected instead of queueing them. */
  failWhileDisconnected?: boolean;
  /** Abort a call as soon as it reports a 'throttle' (it then sends nothing). */
  abortOnThrottle?: boolean;
  /**
   * Open loop: each burst starts its calls this many ms apart (call i at i × every), whatever the
   * earlier ones are doing, and prints `CALLED <i>` as call i starts; default: all at once.
   */
  every?: number;
}

export interface CallOutcome {
  ok: boolean;
  ms: number;
  error?: {
    name: string;
    code?: string | undefined;
    status?: number | undefined;
    retryAfter?: number | undefined;
  };
}

export interface WorkerResult {
  pid: number;
  outcomes: CallOutcome[];
  throttles: Array<{ waitMs: number; reason: string }>;
  retries: Array<{ delayMs: number; reason: string }>;
  stateErrors: Array<{ operation: string; message: string }>;
}

const config = JSON.parse(process.argv[2] ?? '') as WorkerConfig;
const dist = process.env.TELEPHONY_SDK_DIST;
const [{ TelephonyClient }, { redisState }] = (
  dist === undefined
    ? await Promise.all([import('telephony-sdk'), import('telephony-sdk/redis')])
    : await Promise.all([import(join(dist, 'index.js')), import(join(dist, 'redis.js'))])
) as [typeof import('telephony-sdk'), typeof import('telephony-sdk/redis')];
const fast = config.failWhileDisconnected ?? false;

async function connect(): Promise<{
  connection: RedisConnection;
  pop: () => Promise<void>;
  close: () => void;
}> {
  if (config.driver === 'node-redis') {
    const client = createClient({ url: config.redisUrl, disableOfflineQueue: fast });
    client.on('error', () => {});
    await client.connect();
    return {
      connection: client,
      pop: async () => {
        const popped = await client.sendCommand(['BLPOP', config.startList ?? '', '20']);
        if (popped === null) throw new Error('no start signal within 20 s');
      },
      close: () => client.destroy(),
    };
  }
  const client = new Redis(config.redisUrl, {
    lazyConnect: true,
    ...(fast ? { enableOfflineQueue: false, maxRetriesPerRequest: 0 } : {}),
  });
  client.on('error', () => {});
  await client.connect();
  return {
    connection: client,
    pop: async () => {
      const popped = await client.blpop(config.startList ?? '', 20);
      if (popped === null) throw new Error('no start signal within 20 s');
    },
    close: () => client.disconnect(),
  };
}

const { connection, pop, close } = await connect();
const sdk = new TelephonyClient({
  baseUrl: config.baseUrl,
  baseUrlV1: config.baseUrl,
  clientId: config.clientId,
  clientSecret: config.clientSecret,
  rateLimit: config.rateLimit,
  maxRetryAfter: config.maxRetryAfter,
  ...(config.timeout === undefined ? {} : { timeout: config.timeout }),
  sharedState: redisState(connection),
});
const result: WorkerResult = { pid: process.pid, outcomes: [], throttles: [], retries: [], stateErrors: [] };
const controllers: AbortController[] = [];
sdk.on('throttle', (event) => {
  result.throttles.push({ waitMs: event.waitMs, reason: String(event.reason) });
  if (config.abortOnThrottle) for (const controller of controllers) controller.abort();
});
sdk.on('retry', (event) => result.retries.push({ delayMs: event.delayMs, reason: event.reason }));
sdk.on('shared_state_error', (event) =>
  result.stateErrors.push({ operation: event.operation, message: event.error.message }),
);

async function call(): Promise<CallOutcome> {
  const controller = new AbortController();
  controllers.push(controller);
  const started = performance.now();
  try {
    await sdk.request({ method: 'GET', path: '/v2/calls/recent' }, { signal: controller.signal });
    return { ok: true, ms: performance.now() - started };
  } catch (error) {
    const e = error as Error & { code?: string; status?: number; retryAfter?: number };
    return {
      ok: false,
      ms: performance.now() - started,
      error: { name: e.constructor.name, code: e.code, status: e.status, retryAfter: e.retryAfter },
    };
  }
}

const bursts = [config.calls, ...(config.later ?? [])];
const lines =
  config.startList === undefined || bursts.length > 1
    ? createInterface({ input: process.stdin })[Symbol.asyncIterator]()
    : undefined;
console.log('READY');
for (const [index, calls] of bursts.entries()) {
  if (index === 0 && config.startList !== undefined) await pop();
  else if ((await lines?.next())?.done !== false) throw new Error(`stdin ended before burst ${index}`);
  console.log(`STARTED ${index}`);
  const every = config.every;
  const outcomes = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      every === undefined
        ? call()
        : new Promise<void>((resolve) => setTimeout(resolve, i * every)).then(() => {
            console.log(`CALLED ${i}`);
            return call();
          }),
    ),
  );
  console.log(`DONE ${index} ${JSON.stringify(outcomes)}`);
  result.outcomes.push(...outcomes);
}

console.log(`RESULT ${JSON.stringify(result)}`);
// An open stdin would keep the process alive.
if (lines !== undefined) process.stdin.destroy();
close();
