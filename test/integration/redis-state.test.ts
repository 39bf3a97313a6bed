import { redisDedupStore, redisState } from 'telephony-sdk/redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { MemoryState } from '../../src/core/pacing/shared-state.js';
import { type RedisServer, startRedis, stopAllRedis, unreadBytes } from '../helpers/redis.js';
import { closeRedisClients, redisClients } from '../helpers/redis-clients.js';
import { countingClient, scriptCalls, untilScriptsByDigest } from '../helpers/redis-stats.js';
import { sharedStateContract } from '../helpers/shared-state-contract.js';

// redisState against a real redis-server (test/helpers/redis.ts), over every client it accepts;
// the SharedState contract also runs against MemoryState, the client's default, so both agree.
// One server per client library, emptied before each test; the fault tests pause or stop a server
// of their own.

afterEach(closeRedisClients);
afterAll(stopAllRedis);

/** A server for this test only, stopped when it ends (pass or fail). */
async function ownServer(): Promise<RedisServer> {
  const server = await startRedis();
  onTestFinished(() => server.stop());
  return server;
}

const WINDOW = 60_000;

const SECRET_TOKEN = 'at_CANARY_7f3e91d2_never_in_a_key';

/** The hash tag Redis Cluster hashes a key by: the text between the first `{` and the next `}`. */
function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : undefined;
}

describe('MemoryState', () => {
  sharedStateContract(async () => {
    const state = new MemoryState();
    return { a: state, b: state };
  });
});

describe('redisState, node-redis and ioredis sharing one server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  sharedStateContract(async () => {
    const [nodeRedis, ioredis] = [redisClients[0]![1], redisClients[2]![1]];
    return {
      a: redisState((await nodeRedis(server)).client),
      b: redisState((await ioredis(server)).client),
    };
  });
});

describe.each(redisClients)('redisState over %s', (_name, connect) => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  beforeEach(async () => {
    await (await connect(server)).command('FLUSHALL');
  });

  describe('SharedState contract (two connections)', () => {
    sharedStateContract(async () => ({
      a: redisState((await connect(server)).client),
      b: redisState((await connect(server)).client),
    }));
  });

  it('200 concurrent reserves from two connections: the sorted set holds 200 slots, no window more than the limit', async () => {
    const [one, two] = [await connect(server), await connect(server)];
    const [a, b] = [redisState(one.client), redisState(two.client)];
    const limit = 10;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? b : a).reserve('acct_c:v2', { limit, windowMs: WINDOW }, 0),
      ),
    );
    expect(results.filter((result) => result.waitMs === 0)).toHaveLength(limit);
    const reply = (await one.command(
      'ZRANGE',
      'telephony:{acct_c}:v2:window',
      '0',
      '-1',
      'WITHSCORES',
    )) as unknown[];
    const flat = reply.flat() as string[]; // RESP3 gives [member, score] pairs
    const members = flat.filter((_, i) => i % 2 === 0);
    const slots = flat.filter((_, i) => i % 2 === 1).map(Number);
    expect(new Set(members).size).toBe(200);
    // Exact, on Redis's clock: each slot is a whole window after the one `limit` places back.
    for (let i = limit; i < slots.length; i++) expect(slots[i]! - slots[i - limit]!).toBe(WINDOW);
  });

  it('sends scripts by digest (EVALSHA); after SCRIPT FLUSH one NOSCRIPT is answered by EVAL, then EVALSHA again', async () => {
    const raw = await connect(server);
    const { client, sent } = countingClient(raw.client);
    const state = redisState(client);
    const budget = { limit: 100, windowMs: WINDOW };
    const reserve = () => state.reserve('acct_sha:v2', budget, Date.now());
    await untilScriptsByDigest(raw.command, reserve);
    await raw.command('SCRIPT', 'FLUSH');
    await raw.command('CONFIG', 'RESETSTAT');
    sent.length = 0;
    for (let i = 0; i < 5; i++) expect(await reserve()).toMatchObject({ waitMs: 0, reason: undefined });
    expect(await scriptCalls(raw.command)).toEqual({
      evalsha: { calls: 5, failed: 1 },
      eval: { calls: 1, failed: 0 },
    });
    expect(sent).toEqual(['EVALSHA', 'EVAL', 'EVALSHA', 'EVALSHA', 'EVALSHA', 'EVALSHA']);
    expect(Number(await raw.command('ZCARD', 'telephony:{acct_sha}:v2:window'))).toBeGreaterThanOrEqual(6);
  });

  it("paces and pauses on Redis's clock: the caller's `now` does not move a slot or a pause", async () => {
    const { client } = await connect(server);
    const state = redisState(client);
    const budget = { limit: 1, windowMs: WINDOW };
    const skewed = Date.now() + 3_600_000; // a process an hour ahead
    expect(await state.reserve('acct_t:v2', budget, skewed)).toMatchObject({ waitMs: 0, reason: undefined });
    const second = await state.reserve('acct_t:v2', budget, 0); // one stuck at the epoch
    expect(second.reason).toBe('pacing');
    expect(second.waitMs).toBeGreaterThan(WINDOW - 1_000);
    expect(second.waitMs).toBeLessThanOrEqual(WINDOW);

    await state.pause('acct_t:v1', 5_000, 0);
    const paused = await state.reserve('acct_t:v1', undefined, skewed);
    expect(paused.reason).toBe('paused');
    expect(paused.waitMs).toBeGreaterThan(4_000);
    expect(paused.waitMs).toBeLessThanOrEqual(5_000);
  });

  it('gives back the slots a reservation names in `release` (granted, not used), then writes its seeds', async () => {
    const raw = await connect(server);
    const state = redisState(raw.client);
    const budget = { limit: 2, windowMs: WINDOW };
    const first = await state.reserve('acct_r:v2', budget, 0);
    const second = await state.reserve('acct_r:v2', budget, 0);
    expect(first.slot).toEqual(expect.any(String));
    expect(second.slot).not.toBe(first.slot);
    // Both given back and one send written back: the window holds that send, then the new slot.
    const release = [first.slot!, second.slot!];
    expect(await state.reserve('acct_r:v2', { ...budget, release, seed: [1_000] }, 0)).toMatchObject({
      waitMs: 0,
      held: 1,
    });
    expect(Number(await raw.command('ZCARD', 'telephony:{acct_r}:v2:window'))).toBe(2);
  });

  it("a reservation naming a window the store no longer has (a restart): 'lost', no slot, nothing written; written back, the processes that did are counted, and until all have, the share holds a slot back instead of booking it", async () => {
    const raw = await connect(server);
    const [state, other] = [redisState(raw.client), redisState(raw.client)];
    const budget = { limit: 4, windowMs: WINDOW };
    const zcard = async () => Number(await raw.command('ZCARD', 'telephony:{acct_l}:v2:window'));
    const { epoch } = await state.reserve('acct_l:v2', budget, 0);
    await raw.command('FLUSHALL'); // what a restart without persistence leaves
    const share = { minWaitMs: 30_000, refill: 2 };
    const lost = await state.reserve('acct_l:v2', { ...budget, ...share, epoch, seed: [1_000] }, 0);
    expect(lost).toMatchObject({ retry: 'lost', slot: undefined });
    expect(lost.epoch).toEqual(expect.any(String));
    expect(lost.epoch).not.toBe(epoch);
    expect(await zcard()).toBe(0);
    // Written back under the new name, 1 of 2 processes: the share would send 30 s after the window.
    const renamed = { ...budget, ...share, epoch: lost.epoch };
    expect(await state.reserve('acct_l:v2', { ...renamed, seed: [1_000] }, 0)).toMatchObject({
      retry: 'refilling',
      slot: undefined,
      held: 1,
      refilled: 1,
    });
    expect(await zcard()).toBe(1);
    // The other one writes its send back: the window is whole again, and decides alone.
    const whole = await other.reserve('acct_l:v2', { ...renamed, seed: [2_000] }, 0);
    expect(whole).toMatchObject({ waitMs: 0, reason: undefined, held: 2, refilled: 2 });
    expect(whole.retry).toBeUndefined();
    expect(await zcard()).toBe(3);
    expect(Number(await raw.command('PTTL', 'telephony:{acct_l}:v2:refill'))).toBeLessThanOrEqual(WINDOW);
  });

  it('keys: every one under the prefix with the account as hash tag, none holding the token; all expire', async () => {
    const raw = await connect(server);
    const state = redisState(raw.client);
    const account = 'client_abc';
    await state.reserve(`${account}:v2`, { limit: 5, windowMs: WINDOW }, Date.now());
    await state.reserve(`${account}:v1`, { limit: 5, windowMs: WINDOW }, Date.now());
    await state.pause(`${account}:v2`, 5_000, Date.now());
    await state.writeToken(
      `${account}:token:3f2a9c`,
      { accessToken: SECRET_TOKEN, expiresAt: Date.now() + 3_600_000, obtainedAt: Date.now() },
      'holder-0',
    );
    expect(await state.lockToken(`${account}:token:3f2a9c`, 'holder-1', 10_000, Date.now())).toBe(true);

    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = (await raw.command('SCAN', cursor, 'COUNT', '100')) as [string, string[]];
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    expect(keys.sort()).toEqual([
      'telephony:{client_abc}:token:3f2a9c:lock',
      'telephony:{client_abc}:token:3f2a9c:token',
      'telephony:{client_abc}:v1:epoch',
      'telephony:{client_abc}:v1:members',
      'telephony:{client_abc}:v1:window',
      'telephony:{client_abc}:v2:epoch',
      'telephony:{client_abc}:v2:members',
      'telephony:{client_abc}:v2:pause',
      'telephony:{client_abc}:v2:window',
    ]);
    for (const key of keys) {
      expect(key).not.toContain(SECRET_TOKEN);
      expect(hashTag(key)).toBe(account);
      const ttl = Number(await raw.command('PTTL', key));
      expect(ttl, key).toBeGreaterThan(0);
    }
    const ttl = async (key: string) => Number(await raw.command('PTTL', `telephony:{client_abc}:${key}`));
    expect(await ttl('v2:window')).toBeLessThanOrEqual(WINDOW);
    expect(await ttl('v2:pause')).toBeLessThanOrEqual(5_000);
    // Issue 19: the fleet's processes (15 s after the last one reserved) and the window's name (a day).
    expect(await ttl('v2:members')).toBeLessThanOrEqual(15_000);
    expect(await ttl('v2:epoch')).toBeLessThanOrEqual(86_400_000);
    expect(await ttl('token:3f2a9c:token')).toBeGreaterThan(3_500_000);
    expect(await ttl('token:3f2a9c:token')).toBeLessThanOrEqual(3_600_000);
    expect(await ttl('token:3f2a9c:lock')).toBeLessThanOrEqual(10_000);
    // The token is in one value only (documented: protect the server with an ACL and TLS).
    const holding = [];
    for (const key of keys) {
      const type = await raw.command('TYPE', key);
      const value =
        type === 'string' ? await raw.command('GET', key) : await raw.command('ZRANGE', key, '0', '-1');
      if (JSON.stringify(value).includes(SECRET_TOKEN)) holding.push(key);
    }
    expect(holding).toEqual(['telephony:{client_abc}:token:3f2a9c:token']);
  });

  it('prefix: keys go under the given prefix; a prefix with a brace is refused (it would move the hash tag)', async () => {
    const raw = await connect(server);
    await redisState(raw.client, { prefix: 'myapp:tel:' }).pause('acct_p:v2', 1_000, Date.now());
    expect(await raw.command('KEYS', '*')).toEqual(['myapp:tel:{acct_p}:v2:pause']);
    expect(() => redisState(raw.client, { prefix: 'x{y}:' })).toThrow(TypeError);
  });

  it('works as an ACL user limited to the prefix and the commands the scripts use (the advice in the docs)', async () => {
    const admin = await connect(server);
    // +info only for ioredis's ready check.
    const commands =
      '+eval +evalsha +get +set +del +exists +zadd +zrem +zcard +zrange +zremrangebyscore +sadd +scard +pexpire +time +info';
    await admin.command(
      ...[
        'ACL',
        'SETUSER',
        'telephony',
        'on',
        '>acl-pw',
        'resetkeys',
        '~telephony:*',
        'resetchannels',
        '-@all',
      ],
      ...commands.split(' '),
    );
    const { client, command } = await connect(server, {
      user: { username: 'telephony', password: 'acl-pw' },
    });
    const [state, dedup] = [redisState(client), redisDedupStore(client)];
    const { epoch, slot } = await state.reserve('acct_acl:v2', { limit: 1, windowMs: WINDOW }, Date.now());
    // A write-back after a lost window: its sends, a slot given back, the share while others refill.
    await state.reserve(
      'acct_acl:v2',
      { limit: 2, windowMs: WINDOW, epoch, seed: [1_000], release: [slot ?? ''], minWaitMs: 1, refill: 2 },
      Date.now(),
    );
    await state.pause('acct_acl:v2', 1_000, Date.now());
    expect(await state.lockToken('acct_acl:token:1', 'h', 10_000, Date.now())).toBe(true);
    const token = { accessToken: 'at_acl', expiresAt: Date.now() + 60_000, obtainedAt: Date.now() };
    await state.writeToken('acct_acl:token:1', token, 'h');
    expect(await state.readToken('acct_acl:token:1', Date.now())).toEqual(token);
    await state.unlockToken('acct_acl:token:1', 'h');
    await state.dropToken('acct_acl:token:1', 'at_acl');
    expect(await dedup.claim!('evt_acl', 30)).toBe(true);
    await dedup.release!('evt_acl');
    await dedup.add('evt_acl', 60);
    expect(await dedup.has('evt_acl')).toBe(true);
    // The limit is real: the same user cannot read outside the prefix, nor list keys.
    await expect(command('GET', 'other:key')).rejects.toThrow(/NOPERM/);
    await expect(redisState(client, { prefix: 'other:' }).readToken('a:t', 0)).rejects.toThrow(/NOPERM/);
  });

  it('rejects a key without an account and an invalid budget, touching nothing', async () => {
    const raw = await connect(server);
    const state = redisState(raw.client);
    await expect(state.reserve('v2', undefined, Date.now())).rejects.toThrow(/<account>:<rest>/);
    await expect(state.readToken(':token', Date.now())).rejects.toThrow(TypeError);
    await expect(state.reserve('acct:v2', { limit: 0, windowMs: WINDOW }, Date.now())).rejects.toThrow(
      /invalid rate budget/,
    );
    expect(await raw.command('DBSIZE')).toBe(0);
  });

  it('a value that is not a token reads as none, and the next writeToken replaces it', async () => {
    const raw = await connect(server);
    const state = redisState(raw.client);
    await raw.command('SET', 'telephony:{acct_j}:token:1:token', '{"accessToken":42}');
    expect(await state.readToken('acct_j:token:1', Date.now())).toBeUndefined();
    const token = { accessToken: 'at_next', expiresAt: Date.now() + 60_000, obtainedAt: Date.now() };
    await state.writeToken('acct_j:token:1', token, 'h');
    expect(await state.readToken('acct_j:token:1', Date.now())).toEqual(token);
  });

  it('a paused server: a call hangs (the client bounds it), and once resumed it lands once, state intact', async () => {
    const server = await ownServer();
    const raw = await connect(server);
    const state = redisState(raw.client);
    const budget = { limit: 2, windowMs: WINDOW };
    expect((await state.reserve('acct_f:v2', budget, Date.now())).waitMs).toBe(0);

    server.pause();
    let settled = false;
    const hung = state.reserve('acct_f:v2', budget, Date.now()).finally(() => {
      settled = true;
    });
    // The command is in the frozen server's receive queue: only the client could settle the call now.
    await vi.waitFor(() => expect(unreadBytes(server.port)).toBeGreaterThan(0), {
      timeout: 10_000,
      interval: 10,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);

    server.resume();
    expect(await hung).toMatchObject({ waitMs: 0, reason: undefined });
    // The budget holds exactly the two reservations: the third waits a window.
    expect((await state.reserve('acct_f:v2', budget, Date.now())).reason).toBe('pacing');
    expect(await raw.command('ZCARD', 'telephony:{acct_f}:v2:window')).toBe(3);
  });

  it('a server that goes down: calls fail fast; back up (empty), the store works again once reconnected', async () => {
    const server = await ownServer();
    const raw = await connect(server, { failWhileDisconnected: true });
    const state = redisState(raw.client);
    const token = { accessToken: 'at_before', expiresAt: Date.now() + 60_000, obtainedAt: Date.now() };
    await state.writeToken('acct_d:token:1', token, 'h');

    const lost = raw.nextReconnecting();
    await server.down();
    await lost;
    await expect(state.readToken('acct_d:token:1', Date.now())).rejects.toThrow();
    await expect(state.reserve('acct_d:v2', { limit: 1, windowMs: WINDOW }, Date.now())).rejects.toThrow();

    const back = raw.nextReady();
    await server.up();
    await back;
    expect(await state.readToken('acct_d:token:1', Date.now())).toBeUndefined(); // no persistence
    expect(await state.reserve('acct_d:v2', { limit: 1, windowMs: WINDOW }, Date.now())).toMatchObject({
      waitMs: 0,
      reason: undefined,
    });
    expect(await state.lockToken('acct_d:token:1', 'h2', 10_000, Date.now())).toBe(true);
  });
});

it('refuses an object that is neither a node-redis nor an ioredis client', () => {
  expect(() => redisState({} as never)).toThrow(/node-redis \(sendCommand\) or ioredis \(call\)/);
});
