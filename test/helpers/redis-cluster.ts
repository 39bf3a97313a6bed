import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { freePort } from './redis.js';

/**
 * A real three-master Redis Cluster on 127.0.0.1 (never a mock), for the tests that check the
 * `telephony-sdk/redis` scripts stay on one node per account. Started with `redis-server` (as
 * test/helpers/redis.ts, which says how to install it), the slots split in three, no replicas.
 */
export interface RedisCluster {
  /** One `{ host, port }` per master. */
  readonly nodes: Array<{ host: '127.0.0.1'; port: number }>;
  /** Stops every node and removes the temporary directory. Idempotent. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const READY_WITHIN_MS = 15_000;
const SLOTS = 16_384;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends one command on a fresh connection, retrying until the node answers or the deadline. */
async function command(port: number, args: string[], deadline: number): Promise<unknown> {
  for (;;) {
    const client = createClient({
      socket: { host: HOST, port, reconnectStrategy: false, connectTimeout: 500 },
    });
    client.on('error', () => {});
    try {
      await client.connect();
      return await client.sendCommand(args);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await delay(20);
    } finally {
      client.destroy();
    }
  }
}

/** Starts three cluster-enabled nodes, joins them and assigns the slots; resolves once the cluster is ok. */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'telephony-sdk-redis-cluster-'));
  const children: ChildProcess[] = [];
  const kill = () => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', kill);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', kill);
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('close', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    for (const port of ports) {
      const flags = {
        port: String(port),
        bind: HOST,
        'cluster-enabled': 'yes',
        'cluster-config-file': join(dir, `nodes-${port}.conf`),
        'cluster-node-timeout': '5000',
        save: '',
        appendonly: 'no',
        dir,
        logfile: '',
        loglevel: 'warning',
      };
      const args = Object.entries(flags).flatMap(([name, value]) => [`--${name}`, value]);
      children.push(spawn('redis-server', args, { stdio: 'ignore' }));
    }
    const deadline = Date.now() + READY_WITHIN_MS;
    const [first] = ports as [number, number, number];
    for (const [index, port] of ports.entries()) {
      const from = Math.floor((SLOTS * index) / ports.length);
      const to = Math.floor((SLOTS * (index + 1)) / ports.length) - 1;
      await command(port, ['CLUSTER', 'ADDSLOTSRANGE', String(from), String(to)], deadline);
      if (port !== first) await command(first, ['CLUSTER', 'MEET', HOST, String(port)], deadline);
    }
    for (const port of ports) {
      while (!String(await command(port, ['CLUSTER', 'INFO'], deadline)).includes('cluster_state:ok')) {
        if (Date.now() > deadline) throw new Error(`redis cluster on ${ports.join(', ')} not ok in time`);
        await delay(20);
      }
    }
    return { nodes: ports.map((port) => ({ host: HOST, port })), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
