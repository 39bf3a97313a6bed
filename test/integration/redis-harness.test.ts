import { spawn } from 'node:child_process';
import { type EventEmitter, once } from 'node:events';
import { type AddressInfo, createConnection, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis, stopAllRedis } from '../helpers/redis.js';

// The harness issue 11's Redis tests stand on: a real redis-server per test on a free 127.0.0.1 port,
// driven by both clients the `telephony-sdk/redis` entry will accept (node-redis and ioredis).

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const closers: Array<() => unknown> = [];

afterEach(async () => {
  // Clients first (a paused server must not hold a test up), then every server, even after a failure.
  for (const close of closers.splice(0)) {
    try {
      await close();
    } catch {}
  }
  await stopAllRedis();
});

/**
 * node-redis, reconnecting every 20 ms; errors are collected instead of thrown from the emitter.
 * `socketTimeout` is its only bound on a command already written: the per-command `timeout` and
 * abort signal only cover the time a command waits to be written (@redis/client 6.3 drops both
 * timers once it is on the socket). `socketTimeout` is an idle timeout: it also drops an idle
 * connection, so it is set only where a test wants a hung server to fail the command.
 */
async function nodeRedis(
  server: RedisServer,
  options: { disableOfflineQueue?: boolean; socketTimeout?: number } = {},
) {
  const errors: Error[] = [];
  const { socketTimeout, ...rest } = options;
  const client = createClient({
    url: server.url,
    socket: {
      connectTimeout: 1_000,
      reconnectStrategy: () => 20,
      ...(socketTimeout === undefined ? {} : { socketTimeout }),
    },
    ...rest,
  });
  client.on('error', (error: Error) => errors.push(error));
  closers.push(() => client.destroy());
  await client.connect();
  return { client, errors };
}

/** ioredis, reconnecting every 20 ms, each command bounded by `commandTimeout`. */
async function ioRedis(server: RedisServer, options: { enableOfflineQueue?: boolean } = {}) {
  const errors: Error[] = [];
  const client = new Redis(server.url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    commandTimeout: 250,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 20,
    ...options,
  });
  client.on('error', (error: Error) => errors.push(error));
  closers.push(() => client.disconnect());
  await client.connect();
  return { client, errors };
}

/** The next `event` (unlike events.once, an 'error' event in between does not reject it). */
const next = (emitter: EventEmitter, event: string) =>
  new Promise<void>((resolve) => emitter.once(event, () => resolve()));

/** Resolves with the connect error code, or 'connected'. */
function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const INCR_BY = "return redis.call('INCRBY', KEYS[1], ARGV[1])";

describe('test/helpers/redis.ts: a real redis-server per test', () => {
  it('starts on a free 127.0.0.1 port with persistence off and protected mode on', async () => {
    const server = await startRedis();
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);

    const { client } = await nodeRedis(server);
    expect(await client.configGet(['save', 'appendonly', 'bind', 'protected-mode', 'port'])).toEqual({
      save: '',
      appendonly: 'no',
      bind: '127.0.0.1',
      'protected-mode': 'yes',
      port: String(server.port),
    });
  });

  it('node-redis: SET/GET and a Lua EVAL round trip', async () => {
    const { client } = await nodeRedis(await startRedis());
    expect(await client.set('greeting', 'hello')).toBe('OK');
    expect(await client.get('greeting')).toBe('hello');
    expect(await client.eval(INCR_BY, { keys: ['counter'], arguments: ['5'] })).toBe(5);
    expect(await client.eval(INCR_BY, { keys: ['counter'], arguments: ['2'] })).toBe(7);
  });

  it('ioredis: SET/GET and a Lua EVAL round trip', async () => {
    const { client } = await ioRedis(await startRedis());
    expect(await client.set('greeting', 'hello')).toBe('OK');
    expect(await client.get('greeting')).toBe('hello');
    expect(await client.eval(INCR_BY, 1, 'counter', '5')).toBe(5);
    expect(await client.eval(INCR_BY, 1, 'counter', '2')).toBe(7);
  });

  it('two servers are independent, and both clients see the same data on one', async () => {
    const [one, two] = await Promise.all([startRedis(), startRedis()]);
    expect(one.port).not.toBe(two.port);
    const a = await nodeRedis(one);
    const b = await ioRedis(one);
    const c = await ioRedis(two);
    await a.client.set('shared', 'from node-redis');
    expect(await b.client.get('shared')).toBe('from node-redis');
    expect(await c.client.get('shared')).toBeNull();
  });

  it('pause(): a command times out under the client bound (both clients); after resume() it succeeds', async () => {
    const server = await startRedis();
    const nr = await nodeRedis(server, { socketTimeout: 250 });
    const io = await ioRedis(server); // commandTimeout: 250
    await nr.client.set('k', 'before');

    server.pause();
    const started = performance.now();
    await Promise.all([
      expect(nr.client.get('k')).rejects.toThrow(/socket timeout/i),
      expect(io.client.get('k')).rejects.toThrow(/command timed out/i),
    ]);
    expect(performance.now() - started).toBeLessThan(2_000);
    // The port still takes connections while paused: it is a hang, not a refusal.
    expect(await connectOutcome(server.port)).toBe('connected');

    server.resume();
    // The late replies to the timed-out commands do not shift later ones onto the wrong caller.
    expect(await nr.client.set('k', 'after')).toBe('OK');
    expect(await nr.client.get('k')).toBe('after');
    expect(await io.client.get('k')).toBe('after');
    expect(await io.client.eval(INCR_BY, 1, 'n', '1')).toBe(1);
  });

  it('down(): connections are refused and commands fail fast; up(): same port, empty, clients reconnect', async () => {
    const server = await startRedis();
    const nr = await nodeRedis(server, { disableOfflineQueue: true });
    const io = await ioRedis(server, { enableOfflineQueue: false });
    await nr.client.set('k', 'v');

    const nrLost = next(nr.client, 'reconnecting');
    const ioLost = next(io.client, 'reconnecting');
    await server.down();
    await Promise.all([nrLost, ioLost]);
    expect(await connectOutcome(server.port)).toBe('ECONNREFUSED');
    await expect(nr.client.get('k')).rejects.toThrow();
    await expect(io.client.get('k')).rejects.toThrow();

    const nrBack = next(nr.client, 'ready');
    const ioBack = next(io.client, 'ready');
    await server.up();
    await Promise.all([nrBack, ioBack]);
    expect(await nr.client.get('k')).toBeNull(); // no persistence: a fresh server
    expect(await nr.client.set('k', 'again')).toBe('OK');
    expect(await io.client.get('k')).toBe('again');
  });

  it('up() on a port another process took meanwhile fails with a clear error; stop() still cleans up', async () => {
    const server = await startRedis();
    await server.down();
    const squatter = createServer((socket) => socket.destroy());
    closers.push(() => new Promise((resolve) => squatter.close(resolve)));
    squatter.listen(server.port, '127.0.0.1');
    await once(squatter, 'listening');

    await expect(server.up()).rejects.toThrow(`could not bind 127.0.0.1:${server.port} again`);
    await server.stop();
  });

  it('stop(): the process ends, the port is free for anyone, and stop() again is a no-op', async () => {
    const server = await startRedis();
    const { client } = await nodeRedis(server);
    expect(await client.ping()).toBe('PONG');
    client.destroy();

    await server.stop();
    const probe = createServer();
    probe.listen(server.port, '127.0.0.1');
    await once(probe, 'listening');
    expect((probe.address() as AddressInfo).port).toBe(server.port);
    probe.close();
    await once(probe, 'close');

    await server.stop();
    expect(() => server.pause()).toThrow(/after stop\(\)/);
    await expect(server.up()).rejects.toThrow(/after stop\(\)/);
  });

  it('stopAllRedis() stops every server still running (what afterEach relies on)', async () => {
    const servers = await Promise.all([startRedis(), startRedis()]);
    servers[0]?.pause(); // a paused one too
    await stopAllRedis();
    for (const server of servers) expect(await connectOutcome(server.port)).toBe('ECONNREFUSED');
  });

  it('without redis-server on PATH, startRedis() fails with the install command (it never skips)', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "await (await import('./test/helpers/redis.ts')).startRedis();",
      ],
      { cwd: repoRoot, env: { ...process.env, PATH: '/nonexistent' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    closers.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).not.toBe(0);
    expect(stderr).toContain('redis-server is not on PATH');
    expect(stderr).toContain('sudo apt-get install redis-server');
  });
});
