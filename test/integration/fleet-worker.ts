// One process of a fleet (test/integration/fleet.test.ts): a TelephonyClient sharing its state through
// its own Redis connection, imported as a user imports the SDK. Run as
//   node --import tsx test/integration/fleet-worker.ts '<json config>'
// It connects, prints READY, blocks on BLPOP of the start list (so every process of the fleet starts
// its calls at the same moment), makes its calls concurrently, prints RESULT <json> and exits.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { type RateLimit, TelephonyClient } from 'telephony-sdk';
import { type RedisConnection, redisState } from 'telephony-sdk/redis';

export interface WorkerConfig {
  driver: 'node-redis' | 'ioredis';
  redisUrl: string;
  /** The list to BLPOP before calling (one element per worker, pushed by the test). */
  startList: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  calls: number;
  rateLimit: RateLimit;
  maxRetryAfter: number;
  /** Abort a call as soon as it reports a 'throttle' (it then sends nothing). */
  abortOnThrottle?: boolean;
}

interface CallOutcome {
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
  stateErrors: Array<{ operation: string; message: string }>;
}

const config = JSON.parse(process.argv[2] ?? '') as WorkerConfig;

async function connect(): Promise<{
  connection: RedisConnection;
  pop: () => Promise<void>;
  close: () => void;
}> {
  if (config.driver === 'node-redis') {
    const client = createClient({ url: config.redisUrl });
    client.on('error', () => {});
    await client.connect();
    return {
      connection: client,
      pop: async () => {
        const popped = await client.sendCommand(['BLPOP', config.startList, '20']);
        if (popped === null) throw new Error('no start signal within 20 s');
      },
      close: () => client.destroy(),
    };
  }
  const client = new Redis(config.redisUrl, { lazyConnect: true });
  client.on('error', () => {});
  await client.connect();
  return {
    connection: client,
    pop: async () => {
      const popped = await client.blpop(config.startList, 20);
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
  sharedState: redisState(connection),
});
const result: WorkerResult = { pid: process.pid, outcomes: [], throttles: [], stateErrors: [] };
const controllers: AbortController[] = [];
sdk.on('throttle', (event) => {
  result.throttles.push({ waitMs: event.waitMs, reason: String(event.reason) });
  if (config.abortOnThrottle) for (const controller of controllers) controller.abort();
});
sdk.on('shared_state_error', (event) =>
  result.stateErrors.push({ operation: event.operation, message: event.error.message }),
);

console.log('READY');
await pop();

result.outcomes = await Promise.all(
  Array.from({ length: config.calls }, async (): Promise<CallOutcome> => {
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
  }),
);

console.log(`RESULT ${JSON.stringify(result)}`);
close();
