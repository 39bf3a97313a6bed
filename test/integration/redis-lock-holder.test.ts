import { Redis } from 'ioredis';
import { TelephonyClient } from 'telephony-sdk';
import { redisState } from 'telephony-sdk/redis';
import { createSandbox } from 'telephony-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import { runScript } from './child.js';
import type { LockHolderArgs } from './lock-holder-worker.js';

// Issue 19, item 6 (docs/scale.md, Token): a process that holds the shared token lock and dies blocks
// the others for at most one lease, 4 s. The holder is a real process (lock-holder-worker.ts): a
// TelephonyClient whose token request never answers, so it holds the lock and renews its lease as
// the SDK does; it is SIGKILLed right after a renewal, the worst moment (a whole lease left). The
// lease runs on the redis-server's clock, so this waits for real: about 4 s per driver.

const BASE_URL = 'http://sandbox.test';
const CLIENT_ID = 'app_lock';
const LEASE_MS = 4_000;

let server: RedisServer;
let raw: Redis;
beforeAll(async () => {
  server = await startRedis();
  raw = new Redis(server.url);
});
afterEach(async () => {
  await raw.flushall();
});
afterAll(async () => {
  raw.disconnect();
  await stopAllRedis();
});

/** The lock's remaining lease in ms, once the holder has taken it. */
async function lockTtl(): Promise<number> {
  const [lock] = await raw.keys(`telephony:{${CLIENT_ID}}:token:*:lock`);
  return lock === undefined ? -2 : raw.pttl(lock);
}

/** Polls every 20 ms until `check` is true; fails after `ms`. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`not ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(['node-redis', 'ioredis'] as const)('a token-lock holder (%s) that is SIGKILLed', (driver) => {
  it('blocks another process for at most one lease (4 s), which then gets its own token', async () => {
    const sandbox = createSandbox({ clients: [{ clientId: CLIENT_ID, clientSecret: 'secret_lock_holder' }] });
    const args: LockHolderArgs = [driver, server.url, BASE_URL, CLIENT_ID];
    const worker = runScript('test/integration/lock-holder-worker.ts', args);
    await worker.printed('READY');
    // The holder took the lock; wait for its first renewal (the lease jumps back up), then kill it.
    let ttl = 0;
    await until(
      async () => {
        ttl = await lockTtl();
        return ttl > 0;
      },
      10_000,
      'locked',
    );
    let previous = ttl;
    await until(
      async () => {
        [previous, ttl] = [ttl, await lockTtl()];
        return ttl > previous + 200;
      },
      5_000,
      'renewed',
    );
    worker.child.kill('SIGKILL');
    const killed = performance.now();
    await worker.exited;

    const client = new TelephonyClient({
      baseUrl: BASE_URL,
      clientId: CLIENT_ID,
      clientSecret: 'secret_lock_holder',
      sharedState: redisState(raw),
      fetch: sandbox.fetch,
    });
    const errors: unknown[] = [];
    client.on('shared_state_error', (event) => errors.push(event));
    await client.calls.listRecent();
    const blocked = performance.now() - killed;

    // It really waited for the dead holder's lease (taken at most 20 ms after the renewal) ...
    expect(blocked).toBeGreaterThanOrEqual(ttl - 300);
    // ... and no longer than one lease, plus a poll (100 ms) and a loaded machine's round trips.
    expect(blocked).toBeLessThan(LEASE_MS + 500);
    expect(sandbox.rateReport()[0]).toMatchObject({ tokensIssued: 1, counted: 1, rejected: 0 });
    expect(errors).toEqual([]);
  }, 30_000);
});
