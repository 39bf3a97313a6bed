import { redisState } from 'telephony-sdk/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedToken } from '../../src/core/auth/issued-token.js';
import { SharedTokenSource, type TokenLockTiming } from '../../src/core/auth/shared-token.js';
import { systemClock } from '../../src/core/clock.js';
import { ClientEmitter } from '../../src/core/events.js';
import { FailSafeState } from '../../src/core/pacing/fail-safe-state.js';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import { closeRedisClients, redisClients } from '../helpers/redis-clients.js';

// The shared token's lock over a real redis-server, whose own clock (PX) runs the lease: it cannot be
// faked, so the lock's timing is shortened (an 800 ms lease renewed every 100 ms: a stall of 700 ms
// still renews in time) and these tests wait for real, one or two seconds each. Two sources on two
// connections (node-redis, ioredis) are two processes.

const TIMING: TokenLockTiming = { leaseMs: 800, renewMs: 100, pollMs: 20, waitMs: 5_000 };
const KEY = 'acct_lock:token:1';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
});
afterEach(closeRedisClients);
afterAll(stopAllRedis);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A token request that answers `token` after `ms` of real time, counted in `requests`. */
function endpoint(requests: string[]) {
  return (token: string, ms: number) => async (): Promise<IssuedToken> => {
    requests.push(token);
    await sleep(ms);
    return { access_token: token, expires_in: 3600, scope: undefined };
  };
}

async function sources() {
  const [node, io] = [await redisClients[0]![1](server), await redisClients[2]![1](server)];
  await node.command('FLUSHALL');
  const errors: unknown[] = [];
  const source = (connection: typeof node, request: () => Promise<IssuedToken>) => {
    const events = new ClientEmitter();
    events.on('shared_state_error', (event) => errors.push(event));
    const failSafe = new FailSafeState(redisState(connection.client), systemClock, events, 1_000);
    return new SharedTokenSource(failSafe, KEY, systemClock, request, TIMING);
  };
  return { node, io, source, errors };
}

describe('the token lock over Redis', () => {
  it('a holder whose request outlasts two leases keeps the lock by renewing it: one token request', async () => {
    const requests: string[] = [];
    const answer = endpoint(requests);
    const { node, io, source, errors } = await sources();
    const holder = source(node, answer('tok_slow', 2_000)).obtain();
    await sleep(50);
    const waiter = source(io, answer('tok_other', 0)).obtain();
    const [held, waited] = await Promise.all([holder, waiter]);
    expect(requests).toEqual(['tok_slow']);
    expect([held.access_token, waited.access_token]).toEqual(['tok_slow', 'tok_slow']);
    // The holder's write freed the lock.
    expect(await node.command('EXISTS', 'telephony:{acct_lock}:token:1:lock')).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a holder that died (took the lock and never renewed it) blocks the others for one lease', async () => {
    const requests: string[] = [];
    const { node, io, source, errors } = await sources();
    const dead = redisState(node.client);
    expect(await dead.lockToken(KEY, 'dead-holder', TIMING.leaseMs, Date.now())).toBe(true);
    const started = Date.now();
    const token = await source(io, endpoint(requests)('tok_next', 0)).obtain();
    const waited = Date.now() - started;
    expect(token.access_token).toBe('tok_next');
    expect(requests).toEqual(['tok_next']);
    expect(waited).toBeGreaterThanOrEqual(TIMING.leaseMs - 50);
    // Far below the 5 s a waiter gives a live holder: the lease, plus polls and round trips.
    expect(waited).toBeLessThan(TIMING.leaseMs + 2_000);
    expect(errors).toEqual([]);
  });
});
