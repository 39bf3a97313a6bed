import { redisDedupStore } from 'telephony-sdk/redis';
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { signedDelivery } from '../helpers/delivery.js';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import { closeRedisClients, redisClients } from '../helpers/redis-clients.js';

// redisDedupStore against a real redis-server, over every client it accepts: the receiver's
// de-duplication (has/add) and its cross-instance claim (claim/release), then two receivers sharing it.

afterEach(closeRedisClients);
afterAll(stopAllRedis);

const SECRET = 'whsec_redis_dedup_9c1e';

async function ownServer(): Promise<RedisServer> {
  const server = await startRedis();
  onTestFinished(() => server.stop());
  return server;
}

const delivery = (id: string) => signedDelivery(id, SECRET);

describe.each(redisClients)('redisDedupStore over %s', (_name, connect) => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  beforeEach(async () => {
    await (await connect(server)).command('FLUSHALL');
  });

  it('has/add: an id is remembered for its TTL (seconds), by every instance', async () => {
    const raw = await connect(server);
    const [a, b] = [redisDedupStore(raw.client), redisDedupStore((await connect(server)).client)];
    expect(await a.has('evt_1')).toBe(false);
    await a.add('evt_1', 86_400);
    expect(await a.has('evt_1')).toBe(true);
    expect(await b.has('evt_1')).toBe(true);
    expect(await b.has('evt_2')).toBe(false);
    const ttl = Number(await raw.command('TTL', 'telephony:webhook:evt_1:event'));
    expect(ttl).toBeGreaterThan(86_390);
    expect(ttl).toBeLessThanOrEqual(86_400);
    await a.add('evt_short', 0.2); // EX takes whole seconds: at least 1
    expect(Number(await raw.command('TTL', 'telephony:webhook:evt_short:event'))).toBe(1);
  });

  it('claim: one instance gets it, for its lease; release frees it; a claim is not "processed"', async () => {
    const raw = await connect(server);
    const [a, b] = [redisDedupStore(raw.client), redisDedupStore((await connect(server)).client)];
    expect(await a.claim!('evt_1', 30)).toBe(true);
    expect(await b.claim!('evt_1', 30)).toBe(false);
    expect(await a.claim!('evt_1', 30)).toBe(false); // not re-entrant: one processing at a time
    expect(await b.has('evt_1')).toBe(false);
    const ttl = Number(await raw.command('TTL', 'telephony:webhook:evt_1:event'));
    expect(ttl).toBeGreaterThan(25);
    expect(ttl).toBeLessThanOrEqual(30);
    await a.release!('evt_1');
    expect(await b.claim!('evt_1', 30)).toBe(true);
    expect(await a.claim!('evt_2', 30)).toBe(true);
  });

  it('issue 18: a claim is its token’s: renewed by it, never taken, renewed or released by another token', async () => {
    const raw = await connect(server);
    const [a, b] = [redisDedupStore(raw.client), redisDedupStore((await connect(server)).client)];
    const claimKey = 'telephony:webhook:evt_t:event';
    expect(await a.claim!('evt_t', 30, 'token-a')).toBe(true);
    expect(await raw.command('GET', claimKey)).toBe('token-a');
    expect(await b.claim!('evt_t', 30, 'token-b')).toBe(false);
    await raw.command('PEXPIRE', claimKey, '5000');
    expect(await a.claim!('evt_t', 30, 'token-a')).toBe(true); // renewed: the lease starts again
    expect(Number(await raw.command('PTTL', claimKey))).toBeGreaterThan(25_000);
    await b.release!('evt_t', 'token-b');
    expect(await raw.command('GET', claimKey)).toBe('token-a');
    await a.release!('evt_t', 'token-a');
    expect(await raw.command('EXISTS', claimKey)).toBe(0);
    expect(await b.claim!('evt_t', 30, 'token-b')).toBe(true);
  });

  it('issue 18: once a claim expires another token may take it, and the lapsed holder can neither release nor renew it', async () => {
    const raw = await connect(server);
    const [a, b] = [redisDedupStore(raw.client), redisDedupStore((await connect(server)).client)];
    const claimKey = 'telephony:webhook:evt_x:event';
    expect(await a.claim!('evt_x', 30, 'token-a')).toBe(true);
    // The lease lapses (1 ms left) instead of a 30 s wait; Redis expires it on the next read.
    await raw.command('PEXPIRE', claimKey, '1');
    while (Number(await raw.command('EXISTS', claimKey)) === 1);
    expect(await b.claim!('evt_x', 30, 'token-b')).toBe(true);
    await a.release!('evt_x', 'token-a');
    expect(await a.claim!('evt_x', 30, 'token-a')).toBe(false);
    expect(await raw.command('GET', claimKey)).toBe('token-b');
  });

  it('issue 18: the lease is in milliseconds (PX), at least 1; add ends the claim in the same write', async () => {
    const raw = await connect(server);
    const store = redisDedupStore(raw.client);
    await store.claim!('evt_l', 1.5, 'token-a');
    const pttl = Number(await raw.command('PTTL', 'telephony:webhook:evt_l:event'));
    expect(pttl).toBeGreaterThan(1_000);
    expect(pttl).toBeLessThanOrEqual(1_500);
    await store.add('evt_l', 60, 'token-a');
    expect(await store.has('evt_l')).toBe(true);
    expect(await raw.command('GET', 'telephony:webhook:evt_l:event')).toBe('done');
    // Neither a renewal nor a release by the finished delivery's token touches `done`.
    expect(await store.claim!('evt_l', 30, 'token-a')).toBe(false);
    await store.release!('evt_l', 'token-a');
    await store.release!('evt_l');
    expect(await store.has('evt_l')).toBe(true);
  });

  it('begin: claimed (the key then holds the token for the lease), held by another token, or done', async () => {
    const raw = await connect(server);
    const [a, b] = [redisDedupStore(raw.client), redisDedupStore((await connect(server)).client)];
    expect(await a.begin('evt_b', 30, 'token-a')).toBe('claimed');
    expect(await raw.command('GET', 'telephony:webhook:evt_b:event')).toBe('token-a');
    expect(Number(await raw.command('PTTL', 'telephony:webhook:evt_b:event'))).toBeGreaterThan(25_000);
    expect(await b.begin('evt_b', 30, 'token-b')).toBe('held');
    expect(await raw.command('GET', 'telephony:webhook:evt_b:event')).toBe('token-a');
    await a.add('evt_b', 60, 'token-a');
    expect(await b.begin('evt_b', 30, 'token-b')).toBe('done');
  });

  it('a delivery costs 2 Redis commands, counted by the server (INFO commandstats), scripts’ inner ones included', async () => {
    const raw = await connect(server);
    const receiver = new WebhookReceiver({ secret: SECRET, store: redisDedupStore(raw.client) });
    let runs = 0;
    receiver.on('call.incoming', () => void runs++);
    await raw.command('CONFIG', 'RESETSTAT');
    for (let i = 0; i < 40; i++)
      expect((await receiver.handle(await delivery(`evt_n${i}`))).status).toBe(200);
    const info = String(await raw.command('INFO', 'commandstats'));
    const calls: Record<string, number> = {};
    for (const [, name = '', count] of info.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm))
      if (!/^(config|info)/.test(name)) calls[name] = Number(count);
    expect(runs).toBe(40);
    expect(calls).toEqual({ set: 80 });
    // A re-delivery of a processed event: one command, handlers not run.
    await raw.command('CONFIG', 'RESETSTAT');
    expect(await receiver.handle(await delivery('evt_n0'))).toMatchObject({
      status: 200,
      reason: 'duplicate',
    });
    expect(String(await raw.command('INFO', 'commandstats'))).toMatch(/^cmdstat_set:calls=1,/m);
    expect(runs).toBe(40);
  });

  it('50 concurrent claims of one id from two connections: exactly one wins', async () => {
    const [a, b] = [
      redisDedupStore((await connect(server)).client),
      redisDedupStore((await connect(server)).client),
    ];
    const won = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? b : a).claim!('evt_race', 30)),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('keys: one per event, <prefix>webhook:<id>:event, under a custom prefix too; a brace in the prefix is refused', async () => {
    const raw = await connect(server);
    await redisDedupStore(raw.client).add('evt_k', 60);
    await redisDedupStore(raw.client, { prefix: 'app1:' }).claim!('evt_k', 60);
    expect(((await raw.command('KEYS', '*')) as string[]).sort()).toEqual([
      'app1:webhook:evt_k:event',
      'telephony:webhook:evt_k:event',
    ]);
    expect(() => redisDedupStore(raw.client, { prefix: '{app}:' })).toThrow(TypeError);
  });

  it('two receivers sharing the store: one delivery delivered to both at once runs its handler once', async () => {
    const [a, b] = [
      redisDedupStore((await connect(server)).client),
      redisDedupStore((await connect(server)).client),
    ];
    let runs = 0;
    let fail = true;
    // The handler holds until the other instance has answered, so the two surely overlap.
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const receivers = [a, b].map((store) => {
      const receiver = new WebhookReceiver({ secret: SECRET, store });
      receiver.on('call.incoming', async () => {
        if (++runs === 2) open(); // a second run is the bug under test: do not hang on it
        await gate;
        if (fail) throw new Error('handler failed');
      });
      return receiver;
    });
    const [first, second] = receivers as [WebhookReceiver, WebhookReceiver];

    // A failing handler releases the claim: the re-delivery runs on the other instance.
    const both = [first.handle(await delivery('evt_f')), second.handle(await delivery('evt_f'))];
    await Promise.race(both);
    open();
    const failing = await Promise.all(both);
    expect(runs).toBe(1);
    expect(failing.map((result) => result.reason).sort()).toEqual(['handler_error', 'in_progress']);
    fail = false;
    expect(await second.handle(await delivery('evt_f'))).toMatchObject({ status: 200 });
    expect(runs).toBe(2);
    expect(await first.handle(await delivery('evt_f'))).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(runs).toBe(2);
  });

  it('a paused server: has() hangs (the receiver bounds it), and once resumed answers right, state intact', async () => {
    const own = await ownServer();
    const store = redisDedupStore((await connect(own)).client);
    await store.add('evt_p', 60);
    own.pause();
    let settled = false;
    const hung = Promise.all([store.has('evt_p'), store.claim!('evt_q', 30)]).finally(() => {
      settled = true;
    });
    // A live server answers within a round trip: after several to another server have completed
    // (each also a turn of the event loop for any answer already in), these still have none.
    const other = await connect(server);
    for (let i = 0; i < 5; i++) await other.command('PING');
    expect(settled).toBe(false);
    own.resume();
    expect(await hung).toEqual([true, true]);
    expect(await store.claim!('evt_q', 30)).toBe(false);
  });

  it('a server that goes down: calls fail fast; back up (empty), the store works again once reconnected', async () => {
    const own = await ownServer();
    const raw = await connect(own, { failWhileDisconnected: true });
    const store = redisDedupStore(raw.client);
    await store.add('evt_d', 60);
    const lost = raw.nextReconnecting();
    await own.down();
    await lost;
    await expect(store.has('evt_d')).rejects.toThrow();
    await expect(store.claim!('evt_d', 30)).rejects.toThrow();
    const back = raw.nextReady();
    await own.up();
    await back;
    expect(await store.has('evt_d')).toBe(false); // no persistence
    expect(await store.claim!('evt_d', 30)).toBe(true);
    await store.add('evt_d', 60);
    expect(await store.has('evt_d')).toBe(true);
  });
});
