/**
 * Row 13: the receiver under a re-delivery burst, measured from outside. Each contender is a
 * node:http server in a process of its own (bench/receiver-server.ts) and the load generator another
 * (bench/receiver-load.ts): 64 keep-alive connections on 127.0.0.1, every delivery a distinct
 * `call.incoming` event of ~1 KB signed afresh. Rounds interleave the contenders; the figure is
 * deliveries answered 200 per second of the server's own CPU time ("per core"): on a machine other
 * processes load, that counts the work done, not the time spent waiting for a core. Medians over
 * the rounds. Floors A and B are in the same run. Then memory over a 100 000-event burst, and Redis
 * commands per event counted by the server (INFO commandstats).
 *
 * BENCH_RECEIVER_SECONDS (default 12) and BENCH_RECEIVER_ROUNDS (default 3) shorten it.
 * BENCH_RECEIVER_CPU_PROF=<dir> has every server write a V8 CPU profile there (`node --cpu-prof`,
 * named by contender), to open in Chrome DevTools: where a contender's time goes under this very load.
 * Profiling costs each server CPU of its own, so that run's figures are not the row's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { startRedis } from '../../test/helpers/redis.js';
import { median } from '../harness.js';
import { type ContenderName, SECRET } from '../receiver-contenders.js';
import type { LoadConfig, LoadResult } from '../receiver-load.js';
import { fmt, goal, type RowResult } from '../report.js';

const SECONDS = Number(process.env.BENCH_RECEIVER_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_RECEIVER_ROUNDS ?? 3);
const PROFILES = process.env.BENCH_RECEIVER_CPU_PROF;
const COMMAND = 'npm run bench -- receiver';

const CONTENDERS: Array<{ name: ContenderName; label: string; scheme: LoadConfig['scheme'] }> = [
  {
    name: 'floor-a',
    label: 'floor A: node:http + node:crypto timingSafeEqual + JSON.parse + 200',
    scheme: 'service',
  },
  { name: 'floor-b', label: 'floor B: floor A + one SET NX EX per event (node-redis)', scheme: 'service' },
  { name: 'sdk-memory', label: 'WebhookReceiver.nodeHandler, in-memory store', scheme: 'service' },
  {
    name: 'sdk-redis',
    label: 'WebhookReceiver.nodeHandler, redisDedupStore (node-redis)',
    scheme: 'service',
  },
  { name: 'stripe', label: 'Stripe constructEvent in node:http', scheme: 'stripe' },
  { name: 'octokit', label: '@octokit/webhooks createNodeMiddleware', scheme: 'octokit' },
  { name: 'standardwebhooks', label: 'Standard Webhooks verify in node:http', scheme: 'standardwebhooks' },
];

const script = (name: string) => fileURLToPath(new URL(`../${name}`, import.meta.url));

/** Lines of a child's stdout, one at a time. */
function lines(child: ChildProcess): () => Promise<string> {
  const queue: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queue.push(line);
  });
  return () => {
    const line = queue.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
  };
}

interface ServerReport {
  cpuMs: number;
  handled: number;
  rss: number[];
}

/** One contender's server under one load run: what the generator saw and what the server reports. */
async function run(
  contender: ContenderName,
  scheme: LoadConfig['scheme'],
  redisUrl: string,
  load: Omit<LoadConfig, 'port' | 'scheme' | 'secret'>,
  sampleRss = false,
): Promise<{ load: LoadResult; server: ServerReport }> {
  const server = spawn(
    process.execPath,
    [
      '--expose-gc',
      ...(PROFILES
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${PROFILES}`,
            `--cpu-prof-name=${contender}-${Date.now()}.cpuprofile`,
          ]
        : []),
      '--import',
      'tsx',
      script('receiver-server.ts'),
      contender,
      redisUrl,
      sampleRss ? 'rss' : '',
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const next = lines(server);
  const { port } = JSON.parse(await next()) as { port: number };
  const config: LoadConfig = { ...load, port, scheme, secret: SECRET };
  const generator = spawn(
    process.execPath,
    ['--import', 'tsx', script('receiver-load.ts'), JSON.stringify(config)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const result = JSON.parse(await lines(generator)()) as LoadResult;
  server.stdin!.write('stop\n');
  const report = JSON.parse(await next()) as ServerReport;
  return { load: result, server: report };
}

const perCore = ({ load, server }: { load: LoadResult; server: ServerReport }) =>
  ((load.byStatus['200'] ?? 0) / server.cpuMs) * 1000;

/**
 * Commands the server ran since `CONFIG RESETSTAT`, leaving out those two and what a client sends as
 * it connects (HELLO, CLIENT SETINFO, SELECT): the commands of the deliveries.
 */
async function commandCounts(command: (...args: string[]) => Promise<unknown>): Promise<number> {
  const info = String(await command('INFO', 'commandstats'));
  let total = 0;
  for (const [, name = '', calls] of info.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm))
    if (!/^(config|info|hello|client|select)/.test(name)) total += Number(calls);
  return total;
}

export async function receiverRows(): Promise<RowResult[]> {
  const redis = await startRedis();
  const admin = await createClient({ url: redis.url }).connect();
  const command = (...args: string[]) => admin.sendCommand(args);
  try {
    const rates = new Map<ContenderName, number[]>(CONTENDERS.map(({ name }) => [name, []]));
    const redisCommands: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Rotated each round, so a drift of the machine hits every contender alike.
      const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]!);
      for (const { name, scheme } of order) {
        await command('FLUSHALL');
        await command('CONFIG', 'RESETSTAT');
        const measured = await run(name, scheme, redis.url, { connections: 64, seconds: SECONDS });
        rates.get(name)!.push(perCore(measured));
        if (name === 'sdk-redis')
          redisCommands.push((await commandCounts(command)) / measured.server.handled);
      }
    }
    const rate = (name: ContenderName) => median(rates.get(name)!);
    const [floorA, floorB] = [rate('floor-a'), rate('floor-b')];
    const table = [
      ['contender', 'deliveries/s per core', 'vs floor'],
      ...CONTENDERS.map(({ name, label }) => {
        const floor = name === 'floor-b' || name === 'sdk-redis' ? floorB : floorA;
        return [
          label,
          fmt(rate(name)),
          `${(rate(name) / floor).toFixed(2)}× ${floor === floorB ? 'B' : 'A'}`,
        ];
      }),
    ];
    const commandsPerEvent = median(redisCommands);

    // Memory: one 100 000-event burst, RSS after every 10 000 (after a full GC: what is kept, not garbage
    // not yet collected); then the first event once more.
    await command('FLUSHALL');
    const burst = await run(
      'sdk-memory',
      'service',
      redis.url,
      { connections: 64, seconds: 600, total: 100_000, repeatFirst: true },
      true,
    );
    const rss = burst.server.rss;
    const warm = rss[1] ?? rss[0] ?? 0;
    const growthMb = (Math.max(...rss.slice(1)) - warm) / 2 ** 20;
    const duplicate = burst.load.repeat === 200 && burst.server.handled === 100_000;

    return [
      {
        row: '13. the receiver under a re-delivery burst: deliveries/s per core of server CPU, 64 connections, ~1 KB events',
        command: COMMAND,
        table,
        goals: [
          goal(
            'in-memory store ≥ 0.85× floor A',
            rate('sdk-memory') / floorA >= 0.85,
            `${(rate('sdk-memory') / floorA).toFixed(2)}×`,
          ),
          goal(
            'redisDedupStore ≥ 0.85× floor B',
            rate('sdk-redis') / floorB >= 0.85,
            `${(rate('sdk-redis') / floorB).toFixed(2)}×`,
          ),
          goal(
            '≤ 2 Redis commands per event (INFO commandstats)',
            commandsPerEvent <= 2,
            `${commandsPerEvent.toFixed(2)} per event`,
          ),
          goal(
            '100 000-event burst: RSS (after a GC) within +32 MB after warm-up (20 000), and a re-delivery of the first event is a duplicate',
            growthMb <= 32 && duplicate,
            `+${growthMb.toFixed(1)} MB (RSS ${rss.map((b) => Math.round(b / 2 ** 20)).join(', ')} MB every 10 000); re-delivery answered ${burst.load.repeat}, handlers ran ${burst.server.handled} times`,
          ),
        ],
        notes: [
          `${ROUNDS} interleaved rounds of ${SECONDS} s per contender, medians; each server and the load generator in processes of their own`,
          'per core: deliveries answered 200 over the server process’s user + system CPU time; the handlers are a synchronous counter',
          `rounds (deliveries/s per core): ${CONTENDERS.map(
            ({ name }) =>
              `${name} ${rates
                .get(name)!
                .map((rate) => fmt(rate))
                .join(' / ')}`,
          ).join('; ')}`,
        ],
      },
    ];
  } finally {
    await admin.quit();
    await redis.stop();
  }
}
