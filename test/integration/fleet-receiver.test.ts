import { redisDedupStore } from 'telephony-sdk/redis';
import { type HandleResult, WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedDelivery } from '../helpers/delivery.js';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';
import { type ConnectedClient, closeRedisClients, redisClients } from '../helpers/redis-clients.js';

// API.md "Scale": the receiver's store failure answers 500 (the service re-delivers, nothing is lost),
// through WebhookReceiver.handle() with two instances sharing redisDedupStore on a real redis-server
// that goes down and comes back, or freezes. (test/integration/redis-dedup.test.ts covers the store's
// own calls in those faults; this covers what the receivers answer and that the event runs once.)

afterEach(closeRedisClients);
afterAll(stopAllRedis);

const SECRET = 'whsec_fleet_receiver_3b7d';

const delivery = (id: string) => signedDelivery(id, SECRET);

describe.each([redisClients[0]!, redisClients[2]!])(
  'two receivers sharing redisDedupStore over %s',
  (_name, connect) => {
    let server: RedisServer;
    let connections: ConnectedClient[];
    let runs: string[];
    let receivers: [WebhookReceiver, WebhookReceiver];
    let storeErrors: number;

    beforeEach(async () => {
      server = await startRedis();
      connections = [
        await connect(server, { failWhileDisconnected: true }),
        await connect(server, { failWhileDisconnected: true }),
      ];
      runs = [];
      storeErrors = 0;
      receivers = connections.map((connection) => {
        const receiver = new WebhookReceiver({
          secret: SECRET,
          store: redisDedupStore(connection.client),
          handlerTimeout: 1,
        });
        receiver.on('call.incoming', (event) => {
          runs.push(event.id);
        });
        receiver.on('store_error', () => {
          storeErrors++;
        });
        return receiver;
      }) as [WebhookReceiver, WebhookReceiver];
    });
    afterEach(async () => {
      await closeRedisClients();
      await server.stop();
    });

    it('store down: 500 store_error, handler not run; back up, the re-delivery runs once on either instance', async () => {
      const [a, b] = receivers;
      const lost = Promise.all(connections.map((c) => c.nextReconnecting()));
      await server.down();
      await lost;
      expect(await a.handle(await delivery('evt_down'))).toMatchObject({
        status: 500,
        reason: 'store_error',
      });
      expect(await b.handle(await delivery('evt_down'))).toMatchObject({
        status: 500,
        reason: 'store_error',
      });
      expect(storeErrors).toBe(2);
      expect(runs).toEqual([]);
      const back = Promise.all(connections.map((c) => c.nextReady()));
      await server.up();
      await back;
      expect(await b.handle(await delivery('evt_down'))).toMatchObject({ status: 200 });
      expect(await a.handle(await delivery('evt_down'))).toMatchObject({ status: 200, reason: 'duplicate' });
      expect(await b.handle(await delivery('evt_down'))).toMatchObject({ status: 200, reason: 'duplicate' });
      expect(runs).toEqual(['evt_down']);
    });

    it('store frozen (SIGSTOP): 500 within the handler timeout (1 s), not 200; resumed, re-deliveries end in one run', async () => {
      const [a, b] = receivers;
      server.pause();
      try {
        const started = performance.now();
        const answer = await a.handle(await delivery('evt_frozen'));
        expect(answer.status).toBe(500);
        expect(performance.now() - started).toBeLessThan(2_000);
        expect(runs).toEqual([]);
      } finally {
        server.resume();
      }
      // The service re-delivers, alternating instances, until a 200 (a claim the cut-off attempt's
      // command took once the server resumed answers 409 until its lease lapses); the attempt that was
      // cut off may still finish after the resume: either way the handler runs once.
      let attempt = 0;
      await vi.waitFor(
        async () => {
          const receiver = attempt++ % 2 === 0 ? b : a;
          expect((await receiver.handle(await delivery('evt_frozen'))).status).toBe(200);
        },
        { timeout: 10_000, interval: 50 },
      );
      // Redis answers each connection in order: a PING answered on both means the cut-off attempt's
      // commands are answered too, and a turn of the event loop lets its handler run if it won.
      await Promise.all(connections.map((c) => c.command('PING')));
      await new Promise((resolve) => setImmediate(resolve));
      expect(runs).toEqual(['evt_frozen']);
    });
  },
);

// Issue 18 (API.md "Webhooks", last paragraph): a claim belongs to the delivery that made it and lasts
// as long as its handlers run, so re-deliveries racing to two instances run each event once, never
// twice at once, even when a handler outlives dedupTtl and the claim's own lease.
describe.each([redisClients[0]!, redisClients[2]!])(
  'issue 18: claims across two receivers over %s',
  (_name, connect) => {
    let server: RedisServer;
    beforeEach(async () => {
      server = await startRedis();
      renewals.clear();
    });
    afterEach(async () => {
      await closeRedisClients();
      await server.stop();
    });

    /** Renewals of each id's claim that Redis answered, and a wait for the next one. */
    const renewals = new Map<string, number>();
    let renewed = () => {};
    const nextRenewal = () =>
      new Promise<void>((resolve) => {
        renewed = resolve;
      });
    /**
     * Two receivers on one redis-server, each with its own connection, running `handler`. Their stores
     * count the claims' renewals (`claim` is called for nothing else once `begin` took the claim).
     */
    async function twoReceivers(options: object, handler: (event: { id: string }) => Promise<void>) {
      // Verification and the event's age on a frozen clock: the events stay fresh (dedupTtl 1 s caps
      // maxEventAge) while Redis's leases run on the real one.
      const now = Math.floor(Date.now() / 1000);
      return Promise.all(
        [0, 1].map(async () => {
          const shared = redisDedupStore((await connect(server)).client);
          const store: typeof shared = {
            ...shared,
            async claim(id, leaseSeconds, token) {
              const holds = await shared.claim(id, leaseSeconds, token);
              renewals.set(id, (renewals.get(id) ?? 0) + 1);
              renewed();
              return holds;
            },
          };
          const receiver = new WebhookReceiver({ secret: SECRET, now, store, ...options });
          receiver.on('call.incoming', handler);
          return receiver;
        }),
      ) as Promise<[WebhookReceiver, WebhookReceiver]>;
    }

    it('slow handlers that outlive dedupTtl and the lease, re-deliveries racing to both: each event runs once, alone', async () => {
      const ids = ['evt_s1', 'evt_s2', 'evt_s3'];
      const runs: string[] = [];
      const running = new Map<string, number>();
      const mostAtOnce = new Map<string, number>();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      // The lease is handlerTimeout (2 s, whole seconds as EX takes, renewed every 667 ms); dedupTtl is
      // 1 s, which was the lease before (min of the two). The handlers are held until each claim was
      // renewed four times (2.7 s): past both, which only a real Redis expiry can show.
      const [a, b] = await twoReceivers({ handlerTimeout: 2, dedupTtl: 1 }, async ({ id }) => {
        runs.push(id);
        running.set(id, (running.get(id) ?? 0) + 1);
        mostAtOnce.set(id, Math.max(mostAtOnce.get(id) ?? 0, running.get(id) ?? 0));
        await held;
        running.set(id, (running.get(id) ?? 0) - 1);
      });
      const first = Promise.all(ids.map(async (id, i) => (i % 2 ? b : a).handle(await delivery(id))));
      await vi.waitFor(() => expect(runs).toHaveLength(ids.length));
      // Five at once per event, to both instances, after every renewal: the moments a claim that was not
      // renewed would lapse. One that reaches the instance running the event before its handlerTimeout
      // shares that delivery's answer (500); any other answers 409 at once.
      const redeliveries: Promise<HandleResult>[] = [];
      while (ids.some((id) => (renewals.get(id) ?? 0) < 4)) {
        for (const id of ids)
          for (const receiver of [a, b, a, b, a])
            redeliveries.push(delivery(id).then((d) => receiver.handle(d)));
        await nextRenewal();
      }
      // Every re-delivery is answered while the handlers are still held (409, or the 500 it shared).
      const [firstAnswers, answers] = await Promise.all([first, Promise.all(redeliveries)]);
      release();
      // The point: each event ran once, and never two runs of one event at once.
      expect(runs.sort()).toEqual(ids);
      expect(Object.fromEntries(mostAtOnce)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
      // handlerTimeout answered the first deliveries at 2 s; their handlers went on, holding the claims.
      expect(new Set(firstAnswers.map(({ status, reason }) => `${status} ${reason}`))).toEqual(
        new Set(['500 handler_error']),
      );
      const seen = new Set(answers.map(({ status, reason }) => `${status} ${reason}`));
      expect(seen.has('409 in_progress')).toBe(true);
      expect(
        [...seen].filter((answer) => answer !== '409 in_progress' && answer !== '500 handler_error'),
      ).toEqual([]);
      // Once the handlers end, the ids are remembered: both instances answer duplicate.
      await vi.waitFor(async () => {
        for (const id of ids)
          for (const receiver of [a, b])
            expect(await receiver.handle(await delivery(id))).toMatchObject({
              status: 200,
              reason: 'duplicate',
            });
      });
      expect(runs).toHaveLength(ids.length);
    });

    it('a failing handler releases its own claim: the racing re-deliveries then run the event once more, on one instance', async () => {
      let runs = 0;
      let fail = true;
      const [a, b] = await twoReceivers({}, async () => {
        runs++;
        if (fail) throw new Error('db down');
      });
      expect(await a.handle(await delivery('evt_f'))).toMatchObject({ status: 500, reason: 'handler_error' });
      fail = false;
      const answers = await Promise.all(
        [a, b, a, b, a, b].map(async (receiver) => receiver.handle(await delivery('evt_f'))),
      );
      // Exactly once more, on either instance; the others shared its answer, or found it running or done.
      expect(runs).toBe(2);
      for (const { status, reason } of answers)
        expect(['200 undefined', '200 duplicate', '409 in_progress']).toContain(`${status} ${reason}`);
    });

    it('a store written before claim tokens (SET NX / DEL) still runs an event once, and a failure lets the re-delivery run', async () => {
      let runs = 0;
      let fail = true;
      const oldStyle = async () => {
        const { command } = await connect(server);
        return {
          has: async (id: string) => Number(await command('EXISTS', `old:${id}:done`)) === 1,
          add: async (id: string, ttl: number) =>
            void (await command('SET', `old:${id}:done`, '1', 'EX', String(ttl))),
          claim: async (id: string, lease: number) =>
            (await command('SET', `old:${id}:claim`, '1', 'NX', 'EX', String(lease))) !== null,
          release: async (id: string) => void (await command('DEL', `old:${id}:claim`)),
        };
      };
      const now = Math.floor(Date.now() / 1000);
      const [a, b] = await Promise.all(
        [0, 1].map(async () => {
          const receiver = new WebhookReceiver({ secret: SECRET, now, store: await oldStyle() });
          receiver.on('call.incoming', async () => {
            runs++;
            if (fail) throw new Error('db down');
          });
          return receiver;
        }),
      );
      expect(await a!.handle(await delivery('evt_o'))).toMatchObject({
        status: 500,
        reason: 'handler_error',
      });
      fail = false;
      const answers = await Promise.all([a!, b!, a!, b!].map(async (r) => r.handle(await delivery('evt_o'))));
      expect(runs).toBe(2);
      for (const { status, reason } of answers)
        expect(['200 undefined', '200 duplicate', '409 in_progress']).toContain(`${status} ${reason}`);
      expect(await b!.handle(await delivery('evt_o'))).toMatchObject({ status: 200, reason: 'duplicate' });
      expect(runs).toBe(2);
    });
  },
);
