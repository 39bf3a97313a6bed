import { redisDedupStore } from 'telephony-sdk/redis';
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
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
      // The service re-delivers (here every 50 ms, bounded) until a 200; the attempt that was cut off
      // may still finish after the resume: either way the handler runs once.
      let status = 0;
      for (let i = 0; i < 40 && status !== 200; i++) {
        const receiver = i % 2 === 0 ? b : a;
        status = (await receiver.handle(await delivery('evt_frozen'))).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(200);
      // Redis answers each connection in order: a PING answered on both means the cut-off attempt's
      // commands are answered too, and a turn of the event loop lets its handler run if it won.
      await Promise.all(connections.map((c) => c.command('PING')));
      await new Promise((resolve) => setImmediate(resolve));
      expect(runs).toEqual(['evt_frozen']);
    });
  },
);
