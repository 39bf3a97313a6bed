/**
 * One receiver under load (bench/rows/receiver.ts), in a process of its own: node:http on 127.0.0.1
 * port 0 serving one contender, named in argv[2] (argv[3]: a Redis URL for the contenders that use
 * one; argv[4] `rss`: sample RSS after every 10 000 answers, after a GC where --expose-gc allows it,
 * a listener per request the throughput runs go without). Prints `{"port":…}` once listening; on `stop` over stdin it prints
 * `{"cpuMs":…,"handled":…,"rss":[…]}` (its own CPU time since listening, handler runs, the RSS
 * samples) and exits. Every contender answers 200 only to a verified, parsed event.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeMiddleware, Webhooks } from '@octokit/webhooks';
import { createClient } from 'redis';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { type ContenderName, SECRET } from './receiver-contenders.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface SdkReceiverModule {
  WebhookReceiver: new (
    options: Record<string, unknown>,
  ) => {
    on(type: string, fn: (event: unknown) => unknown): unknown;
    nodeHandler: Handler;
  };
}
interface SdkRedisDedupModule {
  redisDedupStore(client: unknown): unknown;
}

const dist = process.env.TELEPHONY_SDK_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
let handled = 0;
const count = () => {
  handled++;
};

function readBody(req: IncomingMessage, then: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => then(Buffer.concat(chunks)));
}

function answer(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

/** Floor A: HMAC-SHA256 with node:crypto, timingSafeEqual, JSON.parse, 200. */
function verifyFloor(body: Buffer, header: string | undefined): { id: string } | undefined {
  const match = /^t=(\d+),v1=([\da-f]{64})$/.exec(header ?? '');
  if (!match || Math.abs(Date.now() / 1000 - Number(match[1])) > 300) return undefined;
  const expected = createHmac('sha256', SECRET).update(body).digest();
  if (!timingSafeEqual(expected, Buffer.from(match[2] as string, 'hex'))) return undefined;
  return JSON.parse(body.toString('utf8')) as { id: string };
}

async function handlerFor(name: ContenderName, redisUrl: string | undefined): Promise<Handler> {
  const redis = () => createClient({ url: redisUrl ?? 'redis://127.0.0.1:6379' }).connect();
  switch (name) {
    case 'floor-a':
      return (req, res) =>
        readBody(req, (body) => {
          const event = verifyFloor(body, req.headers['service-signature'] as string | undefined);
          if (event) count();
          answer(res, event ? 200 : 401);
        });
    case 'floor-b': {
      const client = await redis();
      return (req, res) =>
        readBody(req, (body) => {
          const event = verifyFloor(body, req.headers['service-signature'] as string | undefined);
          if (!event) return answer(res, 401);
          client.sendCommand(['SET', `floor:${event.id}`, '1', 'NX', 'EX', '86400']).then(
            (set) => {
              if (set !== null) count();
              answer(res, 200);
            },
            () => answer(res, 500),
          );
        });
    }
    case 'sdk-memory':
    case 'sdk-redis': {
      const { WebhookReceiver } = (await import(join(dist, 'webhooks.js'))) as SdkReceiverModule;
      const options: Record<string, unknown> = { secret: SECRET };
      if (name === 'sdk-redis') {
        const { redisDedupStore } = (await import(join(dist, 'redis.js'))) as SdkRedisDedupModule;
        options.store = redisDedupStore(await redis());
      }
      const receiver = new WebhookReceiver(options);
      receiver.on('call.incoming', count);
      return receiver.nodeHandler;
    }
    case 'stripe':
      return (req, res) =>
        readBody(req, (body) => {
          try {
            Stripe.webhooks.constructEvent(body, req.headers['stripe-signature'] as string, SECRET);
            count();
            answer(res, 200);
          } catch {
            answer(res, 400);
          }
        });
    case 'standardwebhooks': {
      const webhook = new StandardWebhook(`whsec_${Buffer.from(SECRET).toString('base64')}`);
      return (req, res) =>
        readBody(req, (body) => {
          try {
            webhook.verify(body.toString('utf8'), req.headers as Record<string, string>);
            count();
            answer(res, 200);
          } catch {
            answer(res, 400);
          }
        });
    }
    case 'octokit': {
      const webhooks = new Webhooks({ secret: SECRET });
      webhooks.on('ping', count);
      return createNodeMiddleware(webhooks, { path: '/' }) as Handler;
    }
  }
}

const name = process.argv[2] as ContenderName;
const handler = await handlerFor(name, process.argv[3]);
const rss: number[] = [];
let served = 0;
const server = createServer(
  process.argv[4] === 'rss'
    ? (req, res) => {
        handler(req, res);
        res.on('finish', () => {
          if (++served % 10_000 !== 0) return;
          // What is kept, not garbage not yet collected (the row starts this process with --expose-gc).
          (globalThis as { gc?: () => void }).gc?.();
          rss.push(process.memoryUsage.rss());
        });
      }
    : handler,
);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const start = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address?.port })}\n`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (line: string) => {
    if (!line.includes('stop')) return;
    const cpu = process.cpuUsage(start);
    process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, handled, rss })}\n`);
    process.exit(0);
  });
});
