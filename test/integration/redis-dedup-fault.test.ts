import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { type RedisConnection, redisDedupStore } from 'telephony-sdk/redis';
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { signedDelivery } from '../helpers/delivery.js';
import { startRedis, unreadBytes } from '../helpers/redis.js';

// Issue 19, item 5: a receiver whose Redis goes away answers 500 `store_error` within its own store
// bound (2 s), whatever the driver does with the command meanwhile. Each driver is connected as the
// docs show it (its defaults, an 'error' listener): node-redis queues commands while it reconnects
// and ioredis keeps them in its offline queue for ~17 s, and against a frozen server (SIGSTOP) both
// wait for ever. Before the bound these deliveries were answered by handlerTimeout (500
// `handler_error`, 10 s here) or the driver. Real time: the fault is a real process.

const SECRET = 'whsec_store_bound_4e2a';
const BOUND_MS = 2_000;

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0))
    try {
      await close();
    } catch {}
});

const drivers: Array<[string, (url: string) => Promise<RedisConnection>]> = [
  [
    'node-redis',
    async (url) => {
      const client = createClient({ url });
      client.on('error', () => {});
      closers.push(() => client.destroy());
      return client.connect();
    },
  ],
  [
    'ioredis',
    async (url) => {
      const client = new Redis(url, { lazyConnect: true });
      client.on('error', () => {});
      closers.push(() => client.disconnect());
      await client.connect();
      return client;
    },
  ],
];

const faults = [
  ['frozen (SIGSTOP)', (server: Awaited<ReturnType<typeof startRedis>>) => server.pause()],
  ['killed', (server: Awaited<ReturnType<typeof startRedis>>) => server.down()],
] as const;

describe.each(drivers)('a receiver over redisDedupStore on %s', (_name, connect) => {
  it.each(faults)(
    'Redis %s: the delivery is answered 500 store_error within the store bound',
    async (_f, fault) => {
      const server = await startRedis();
      onTestFinished(() => server.stop());
      const receiver = new WebhookReceiver({
        secret: SECRET,
        store: redisDedupStore(await connect(server.url)),
        handlerTimeout: 10,
      });
      let runs = 0;
      receiver.on('call.incoming', () => {
        runs++;
      });
      const errors: unknown[] = [];
      receiver.on('store_error', ({ error }) => errors.push(error));
      // The store works: one delivery processed.
      expect(await receiver.handle(await signedDelivery('evt_before', SECRET))).toMatchObject({
        status: 200,
      });
      await fault(server);
      const started = performance.now();
      const result = await receiver.handle(await signedDelivery('evt_during', SECRET));
      const elapsed = performance.now() - started;
      expect(result).toMatchObject({ status: 500, reason: 'store_error' });
      expect(runs).toBe(1); // `has` never answered: nothing ran for the second event
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toContain('no store answer within 2 s');
      expect(elapsed).toBeGreaterThanOrEqual(BOUND_MS - 50);
      // The bound, plus a loaded machine's scheduling; far below the driver's 5–17 s or handlerTimeout.
      expect(elapsed).toBeLessThan(BOUND_MS + 1_500);
    },
    20_000,
  );
});

// The node-redis store sends its commands without the driver's per-command timer while the client is
// ready. node-redis (6.x) disarms that timer once a command is written anyway: it only ever bounded a
// command still queued to be written, never one waiting for its answer. A command in flight when the
// connection drops is rejected by the driver as the socket closes; against a frozen server it waits,
// timer or not, and the receiver's own 2 s bound (above) answers the delivery.
describe('redisDedupStore on node-redis, commands without the driver timer', () => {
  it('a command in flight when Redis dies rejects: it does not wait for ever', async () => {
    const server = await startRedis();
    onTestFinished(() => server.stop());
    const client = createClient({ url: server.url });
    client.on('error', () => {});
    closers.push(() => client.destroy());
    const store = redisDedupStore(await client.connect());
    expect(await store.begin('evt_warm', 30, 'tok_warm')).toBe('claimed');

    server.pause();
    const inFlight = Promise.resolve(store.begin('evt_mid', 30, 'tok_mid'));
    inFlight.catch(() => {});
    // Written while the client was ready: the command sits unread in the frozen server's socket.
    await vi.waitFor(() => expect(unreadBytes(server.port)).toBeGreaterThan(0), {
      timeout: 10_000,
      interval: 10,
    });
    await server.down('SIGKILL');
    await expect(inFlight).rejects.toThrow(/ECONNRESET|closed/i);
  }, 20_000);
});
