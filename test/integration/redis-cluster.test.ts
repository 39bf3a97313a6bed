import { Cluster } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { type RedisConnection, redisDedupStore, redisState } from 'telephony-sdk/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisCluster, startRedisCluster } from '../helpers/redis-cluster.js';
import { scriptCalls } from '../helpers/redis-stats.js';
import { sharedStateContract } from '../helpers/shared-state-contract.js';

// A real three-master Redis Cluster: every script touches the keys of one account only, and they
// share its hash tag, so no call is refused with CROSSSLOT, whichever node owns the account.

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 30_000);
afterAll(() => cluster?.stop());

const open: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of open.splice(0)) {
    try {
      await close();
    } catch {}
  }
});

const clients: Array<[string, () => Promise<RedisConnection>]> = [
  [
    'node-redis createCluster',
    async () => {
      const client = createCluster({
        rootNodes: cluster.nodes.map(({ host, port }) => ({ url: `redis://${host}:${port}` })),
      });
      client.on('error', () => {});
      open.push(() => client.destroy());
      await client.connect();
      return client;
    },
  ],
  [
    'ioredis Cluster',
    async () => {
      const client = new Cluster(cluster.nodes, { lazyConnect: true });
      client.on('error', () => {});
      open.push(() => client.disconnect());
      await client.connect();
      return client;
    },
  ],
];

/** One command to one node (by default the first: CLUSTER KEYSLOT answers the same on any). */
async function onNode(args: string[], node = cluster.nodes[0]!): Promise<unknown> {
  const client = createClient({ socket: { host: node.host, port: node.port } });
  client.on('error', () => {});
  open.push(() => client.destroy());
  await client.connect();
  return client.sendCommand(args);
}

/** MOVED redirections the nodes answered since their last CONFIG RESETSTAT. */
async function redirections(): Promise<number> {
  let moved = 0;
  for (const node of cluster.nodes) {
    const info = String(await onNode(['INFO', 'errorstats'], node));
    moved += Number(/errorstat_MOVED:count=(\d+)/.exec(info)?.[1] ?? 0);
  }
  return moved;
}

describe.each(clients)('over %s', (_name, connect) => {
  describe('SharedState contract', () => {
    sharedStateContract(async () => ({ a: redisState(await connect()), b: redisState(await connect()) }));
  });

  it('accounts on every master: each one paced and its token kept, no CROSSSLOT', async () => {
    const connection = await connect();
    const state = redisState(connection);
    const run = Math.random().toString(36).slice(2, 8);
    const accounts = Array.from({ length: 30 }, (_, i) => `acct_${run}_${i}`);
    const masters = new Set<number>();
    for (const account of accounts) {
      const slot = Number(await onNode(['CLUSTER', 'KEYSLOT', `telephony:{${account}}:v2:window`]));
      masters.add(Math.floor((slot * cluster.nodes.length) / 16_384));
    }
    expect(masters.size).toBe(cluster.nodes.length);
    for (const node of cluster.nodes) await onNode(['CONFIG', 'RESETSTAT'], node);
    const budget = { limit: 1, windowMs: 60_000 };
    for (const account of accounts) {
      expect(await state.reserve(`${account}:v2`, budget, Date.now())).toMatchObject({
        waitMs: 0,
        reason: undefined,
      });
      expect((await state.reserve(`${account}:v2`, budget, Date.now())).reason).toBe('pacing');
      await state.pause(`${account}:v1`, 1_000, Date.now());
      const token = { accessToken: `at_${account}`, expiresAt: Date.now() + 60_000, obtainedAt: Date.now() };
      expect(await state.lockToken(`${account}:token:1`, 'h', 10_000, Date.now())).toBe(true);
      await state.writeToken(`${account}:token:1`, token, 'h');
      expect(await state.readToken(`${account}:token:1`, Date.now())).toEqual(token);
      await state.dropToken(`${account}:token:1`, token.accessToken);
      expect(await state.readToken(`${account}:token:1`, Date.now())).toBeUndefined();
    }
    // Every command went straight to the node owning its key (the first key routes it).
    expect(await redirections()).toBe(0);
  });

  it('scripts by digest: after SCRIPT FLUSH on every node, each node answers one NOSCRIPT, then EVALSHA only', async () => {
    const state = redisState(await connect());
    const run = Math.random().toString(36).slice(2, 8);
    const accounts = Array.from({ length: 30 }, (_, i) => `acct_${run}_${i}`);
    const budget = { limit: 100, windowMs: 60_000 };
    const scripts = async () => {
      const perNode = [];
      for (const node of cluster.nodes) perNode.push(await scriptCalls((...args) => onNode(args, node)));
      return perNode;
    };
    // The digest is computed on first use; until it is ready the calls go by EVAL.
    for (let i = 0; i < 50 && (await scripts()).every((stats) => stats.evalsha === undefined); i++) {
      await state.reserve(`${accounts[0]}:v2`, budget, Date.now());
    }
    for (const node of cluster.nodes) {
      await onNode(['SCRIPT', 'FLUSH'], node);
      await onNode(['CONFIG', 'RESETSTAT'], node);
    }
    for (let round = 0; round < 2; round++) {
      for (const account of accounts) {
        expect(await state.reserve(`${account}:v2`, budget, Date.now())).toMatchObject({
          waitMs: 0,
          reason: undefined,
        });
      }
    }
    const perNode = await scripts();
    const reservesPerNode = perNode.map((stats) => stats.evalsha!.calls - stats.evalsha!.failed);
    expect(reservesPerNode.reduce((a, b) => a + b)).toBe(2 * accounts.length - cluster.nodes.length);
    for (const stats of perNode) {
      expect(stats.evalsha!.failed).toBe(1);
      expect(stats.eval).toEqual({ calls: 1, failed: 0 });
    }
    expect(await redirections()).toBe(0);
  });

  it('redisDedupStore: has/add, claim/release', async () => {
    const [a, b] = [redisDedupStore(await connect()), redisDedupStore(await connect())];
    const run = Math.random().toString(36).slice(2, 8);
    for (const id of Array.from({ length: 6 }, (_, i) => `evt_${run}_${i}`)) {
      expect(await a.claim!(id, 30)).toBe(true);
      expect(await b.claim!(id, 30)).toBe(false);
      await a.release!(id);
      expect(await b.claim!(id, 30)).toBe(true);
      await b.add(id, 60);
      expect(await a.has(id)).toBe(true);
    }
  });
});
