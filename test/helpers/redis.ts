import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real `redis-server` for tests (never a mock): started by the test on a free 127.0.0.1 port with
 * persistence off and a temporary `--dir`, stopped by the test. Needs the `redis-server` binary on
 * PATH (Debian package `redis-server`; CI installs it in .ci/steps/50-redis-server.sh). Without it
 * `startRedis()` throws, with the install command: the Redis tests fail loudly, they never skip.
 */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`, for node-redis `createClient({ url })` and `new Redis(url)` (ioredis). */
  readonly url: string;
  readonly host: '127.0.0.1';
  readonly port: number;
  /**
   * Freezes the process (SIGSTOP). The port still takes connections (the kernel's listen backlog)
   * but nothing is answered: commands hang until the client's own timeout. The dataset is kept.
   */
  pause(): void;
  /** Unfreezes it (SIGCONT): queued commands are answered, in order. */
  resume(): void;
  /**
   * Stops the process (SIGTERM, SIGKILL after 5 s; `'SIGKILL'`: at once, a crash). The port then
   * refuses connections: commands fail fast instead of timing out. The dataset is lost (no
   * persistence). `up()` starts it again.
   */
  down(signal?: 'SIGKILL'): Promise<void>;
  /** Starts a fresh, empty server on the same port after `down()`; resolves once it answers PING. */
  up(): Promise<void>;
  /** Stops the process (resuming it first if paused) and removes its temporary directory. Idempotent. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
/** A cold start answers PING in a few ms; the bound is for a loaded CI machine. */
const READY_WITHIN_MS = 10_000;
const EXIT_WITHIN_MS = 5_000;
const PING_WITHIN_MS = 1_000;
const POLL_EVERY_MS = 10;
/** Attempts at a fresh port when another process takes the probed one before redis-server binds it. */
const PORT_ATTEMPTS = 5;
const LOG_KEEP = 8_192;

const MISSING = [
  'redis-server is not on PATH. The Redis tests run a real redis-server (no mock) and do not skip without',
  'one. Install it, then run the tests again:',
  '  Debian/Ubuntu:  sudo apt-get install redis-server',
  '                  (or sudo bash .ci/steps/50-redis-server.sh, what CI runs)',
  '  macOS:          brew install redis',
].join('\n');

let binaryChecked = false;

function requireBinary(): void {
  if (binaryChecked) return;
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8', timeout: EXIT_WITHIN_MS });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new Error(MISSING);
  if (probe.error || probe.status !== 0) {
    throw new Error(`redis-server --version failed: ${probe.error?.message ?? probe.stderr ?? probe.status}`);
  }
  binaryChecked = true;
}

/** Every process started here and not yet reaped: killed when the worker exits, whatever the tests did. */
const live = new Set<Running>();
const servers = new Set<RedisServer>();
let exitHook = false;

function hookExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const running of live) {
      running.child.kill('SIGKILL');
      rmSync(running.dir, { recursive: true, force: true });
    }
  });
}

interface Running {
  readonly child: ChildProcess;
  readonly dir: string;
  readonly exited: Promise<void>;
  /** stdout + stderr, last few kB, for error messages. */
  log(): string;
}

class PortInUse extends Error {}

/** A port free on 127.0.0.1 right now (another process may still take it before it is used). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `PING` then `INFO server` on a fresh connection: the process id proves the answer is from this child. */
function answersPing(port: number, pid: number): Promise<boolean> {
  return new Promise((resolve) => {
    let received = '';
    const socket = createConnection({ host: HOST, port });
    const done = (ready: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ready);
    };
    const timer = setTimeout(() => done(false), PING_WITHIN_MS);
    socket.setEncoding('utf8');
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
    socket.once('connect', () => socket.write('PING\r\nINFO server\r\n'));
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length >= 7 && !received.startsWith('+PONG\r\n')) {
        done(false); // -LOADING, or not a Redis server
        return;
      }
      const id = /\r\nprocess_id:(\d+)\r\n/.exec(received);
      if (id) done(Number(id[1]) === pid);
    });
  });
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function launch(port: number, dir: string): Promise<Running> {
  const flags = {
    port: String(port),
    bind: HOST,
    'protected-mode': 'yes',
    save: '',
    appendonly: 'no',
    dir,
    daemonize: 'no',
    supervised: 'no',
    logfile: '',
    loglevel: 'warning',
    // SIGTERM is acted on at the next server tick: 10 ms instead of the default 100 ms per stop.
    hz: '100',
  };
  const args = Object.entries(flags).flatMap(([name, value]) => [`--${name}`, value]);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: string) => {
    output = (output + chunk).slice(-LOG_KEEP);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  let failure: Error | undefined;
  let ended = false;
  // 'close', not 'exit': by then its output is all read (the bind error included).
  const exited = new Promise<void>((resolve) => {
    const end = () => {
      ended = true;
      resolve();
    };
    child.once('error', (error) => {
      failure = error;
      end();
    });
    child.once('close', end);
  });
  const running: Running = { child, dir, exited, log: () => output };
  live.add(running);
  void exited.then(() => live.delete(running));
  hookExit();

  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (ended) {
      if (output.includes('Address already in use')) {
        throw new PortInUse(`redis-server: ${HOST}:${port} is already in use:\n${output}`);
      }
      throw new Error(
        `redis-server on ${HOST}:${port} ended before answering PING (${failure?.message ?? `exit ${child.exitCode ?? child.signalCode}`}):\n${output}`,
      );
    }
    if (child.pid !== undefined && (await answersPing(port, child.pid))) return running;
    if (Date.now() > deadline) {
      await terminate(running);
      throw new Error(
        `redis-server on ${HOST}:${port} did not answer PING within ${READY_WITHIN_MS} ms:\n${output}`,
      );
    }
    await Promise.race([exited, delay(POLL_EVERY_MS)]);
  }
}

async function exitsWithin(running: Running, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([running.exited.then(() => true as const), timedOut]);
  clearTimeout(timer);
  return result;
}

async function terminate(running: Running, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  const { child } = running;
  if (child.exitCode === null && child.signalCode === null) {
    // A paused process would not act on SIGTERM; SIGKILL ends it frozen, with what it had not read unanswered.
    if (signal === 'SIGTERM') child.kill('SIGCONT');
    child.kill(signal);
    if (!(await exitsWithin(running, EXIT_WITHIN_MS))) {
      child.kill('SIGKILL');
      if (!(await exitsWithin(running, EXIT_WITHIN_MS))) {
        throw new Error(`redis-server pid ${child.pid} did not exit after SIGKILL:\n${running.log()}`);
      }
    }
  }
  await running.exited;
}

/**
 * Starts a `redis-server` on a free 127.0.0.1 port (`--save '' --appendonly no --protected-mode yes`,
 * a temporary `--dir`, not daemonized, `--hz 100`) and resolves once it answers PING; a port taken
 * between the probe and the bind is retried on another. Stop it with `stop()` in an
 * `afterEach`/`afterAll`, or `stopAllRedis()`.
 */
export async function startRedis(): Promise<RedisServer> {
  requireBinary();
  const dir = await mkdtemp(join(tmpdir(), 'telephony-sdk-redis-'));
  let port = 0;
  let current: Running | undefined;
  try {
    for (let attempt = 1; current === undefined; attempt++) {
      port = await freePort();
      try {
        current = await launch(port, dir);
      } catch (error) {
        if (!(error instanceof PortInUse) || attempt >= PORT_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  let stopped = false;
  const alive = (action: string): Running => {
    if (stopped) throw new Error(`redis-server ${HOST}:${port}: ${action} after stop()`);
    if (current === undefined) throw new Error(`redis-server ${HOST}:${port}: ${action} while down()`);
    return current;
  };
  const server: RedisServer = {
    url: `redis://${HOST}:${port}`,
    host: HOST,
    port,
    pause: () => {
      alive('pause()').child.kill('SIGSTOP');
    },
    resume: () => {
      alive('resume()').child.kill('SIGCONT');
    },
    down: async (signal) => {
      const running = alive('down()');
      current = undefined;
      await terminate(running, signal);
    },
    up: async () => {
      if (stopped) throw new Error(`redis-server ${HOST}:${port}: up() after stop()`);
      if (current !== undefined) throw new Error(`redis-server ${HOST}:${port}: up() while already up`);
      try {
        current = await launch(port, dir);
      } catch (error) {
        if (error instanceof PortInUse) {
          throw new Error(
            `redis-server: up() could not bind ${HOST}:${port} again, another process holds it`,
          );
        }
        throw error;
      }
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      servers.delete(server);
      const running = current;
      current = undefined;
      try {
        if (running) await terminate(running);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
  servers.add(server);
  return server;
}

/** Stops every server `startRedis()` started in this worker that is not stopped yet. */
export async function stopAllRedis(): Promise<void> {
  const results = await Promise.allSettled([...servers].map((server) => server.stop()));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Bytes received and not yet read by the server side of the connections to 127.0.0.1:`port`
 * (/proc/net/tcp, Linux): a command a frozen server holds unread.
 */
export function unreadBytes(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let unread = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, address, , state, queues] = line.trim().split(/\s+/);
    // 01: ESTABLISHED; the queues are tx:rx, in hex.
    if (address === local && state === '01') unread += Number.parseInt(queues?.split(':')[1] ?? '0', 16);
  }
  return unread;
}
