/**
 * One process of a fleet (bench/rows/fleet.ts): a TelephonyClient from the built SDK (./dist, as a
 * user runs it), with its own Redis connection when it shares state. Forked with an IPC channel and
 * its config as JSON in argv[2]; it connects, sends `{ type: 'ready' }`, waits for `{ type: 'go' }`
 * (so every process of the fleet starts at the same moment), makes its calls with `concurrency` in
 * flight, sends `{ type: 'done', result }` and exits. Bounded: no call starts after `deadlineMs`, and
 * calls still waiting or in flight then are aborted (counted as `cut`).
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { loadSdk, loadSdkRedis, type SdkEventfulClient } from './sdk.js';

export interface FleetWorkerConfig {
  /** Redis client library of this process; `none`: no sharedState (each client its own memory). */
  driver: 'node-redis' | 'ioredis' | 'none';
  redisUrl: string;
  prefix: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  calls: number;
  concurrency: number;
  rateLimit: { requestsPerMinute: number } | false;
  maxRetries?: number;
  maxRetryAfter?: number;
  /** No call starts after this many ms from go; those waiting or in flight then are aborted. */
  deadlineMs: number;
}

export interface FleetWorkerResult {
  pid: number;
  driver: FleetWorkerConfig['driver'];
  ok: number;
  failed: number;
  /** Calls aborted or never started because the deadline passed. */
  cut: number;
  /** Failed calls by error name and code. */
  errors: Record<string, number>;
  /** Attempts answered 429, as this client saw them. */
  responses429: number;
  attempts: number;
  /** Token endpoint answers this process got, by status (its token requests as it saw them). */
  tokenResponses: Record<string, number>;
  retries: number;
  throttles: { pacing: number; paused: number; maxWaitMs: number };
  tokens: number;
  stateErrors: number;
  /** ms from go to the last call's end. */
  lastMs: number;
}

export type FleetWorkerMessage = { type: 'ready' } | { type: 'done'; result: FleetWorkerResult };

const config = JSON.parse(process.argv[2] ?? '{}') as FleetWorkerConfig;
const send = (message: FleetWorkerMessage) => process.send?.(message);

async function connect(): Promise<{ connection: unknown; close: () => Promise<void> } | undefined> {
  if (config.driver === 'node-redis') {
    const client = createClient({ url: config.redisUrl });
    client.on('error', () => {});
    await client.connect();
    return { connection: client, close: async () => client.destroy() };
  }
  if (config.driver === 'ioredis') {
    const client = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    await client.connect();
    return { connection: client, close: async () => client.disconnect() };
  }
  return undefined;
}

const sdk = await loadSdk();
const redisEntry = await loadSdkRedis();
if (!sdk || !redisEntry)
  throw new Error('fleet-worker: dist/ has no TelephonyClient or redisState (npm run build)');
const redis = await connect();
const client = new sdk.TelephonyClient({
  baseUrl: config.baseUrl,
  clientId: config.clientId,
  clientSecret: config.clientSecret,
  rateLimit: config.rateLimit,
  ...(redis ? { sharedState: redisEntry.redisState(redis.connection, { prefix: config.prefix }) } : {}),
  ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
  ...(config.maxRetryAfter === undefined ? {} : { maxRetryAfter: config.maxRetryAfter }),
}) as SdkEventfulClient;

const result: FleetWorkerResult = {
  pid: process.pid,
  driver: config.driver,
  ok: 0,
  failed: 0,
  cut: 0,
  errors: {},
  responses429: 0,
  attempts: 0,
  tokenResponses: {},
  retries: 0,
  throttles: { pacing: 0, paused: 0, maxWaitMs: 0 },
  tokens: 0,
  stateErrors: 0,
  lastMs: 0,
};
client.on('response', ({ status, url }) => {
  result.attempts++;
  if (url.includes('/oauth/token')) result.tokenResponses[status] = (result.tokenResponses[status] ?? 0) + 1;
  if (status === 429) result.responses429++;
});
client.on('retry', () => {
  result.retries++;
});
client.on('throttle', ({ waitMs, reason }) => {
  if (reason === 'paused') result.throttles.paused++;
  else result.throttles.pacing++;
  result.throttles.maxWaitMs = Math.max(result.throttles.maxWaitMs, waitMs);
});
client.on('token', () => {
  result.tokens++;
});
client.on('shared_state_error', () => {
  result.stateErrors++;
});

async function run(): Promise<void> {
  const start = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), config.deadlineMs);
  let next = 0;
  const worker = async () => {
    while (next < config.calls && !deadline.signal.aborted) {
      next++;
      try {
        await client.request({ method: 'GET', path: '/v2/calls/recent' }, { signal: deadline.signal });
        result.ok++;
      } catch (error) {
        if (deadline.signal.aborted) result.cut++;
        else {
          result.failed++;
          const { name, code } = error as { name?: string; code?: string };
          const key = `${name ?? 'Error'}${code ? ` ${code}` : ''}`;
          result.errors[key] = (result.errors[key] ?? 0) + 1;
        }
      }
      result.lastMs = performance.now() - start;
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency, config.calls) }, worker));
  clearTimeout(timer);
  result.cut += config.calls - next;
}

process.once('message', (message: { type?: string }) => {
  if (message.type !== 'go') return;
  void run().then(async () => {
    await redis?.close();
    send({ type: 'done', result });
    process.disconnect();
  });
});
send({ type: 'ready' });
