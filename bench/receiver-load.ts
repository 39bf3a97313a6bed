/**
 * The load generator of bench/rows/receiver.ts, in a process of its own: `connections` keep-alive
 * connections to 127.0.0.1:`port`, each sending one delivery at a time, every one a distinct
 * `call.incoming` event of ~1 KB signed afresh in `scheme`'s way, for `seconds` or until `total`
 * were answered; then, with `repeatFirst`, the first event once more (as the service re-delivers).
 * Config as JSON in argv[2]; prints `{"answered":…,"byStatus":{…},"seconds":…,"repeat":status}`.
 * Raw HTTP/1.1 over node:net: the generator's own cost per request stays small and the same for
 * every contender.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LoadConfig {
  port: number;
  scheme: 'service' | 'stripe' | 'standardwebhooks' | 'octokit';
  connections: number;
  seconds: number;
  total?: number;
  repeatFirst?: boolean;
  secret: string;
}

export interface LoadResult {
  answered: number;
  byStatus: Record<string, number>;
  seconds: number;
  /** Status of the re-delivery of the first event, with `repeatFirst`. */
  repeat?: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as LoadConfig;
const tag = randomUUID().slice(0, 8);
const padding = 'x'.repeat(640);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data);
const standardKey = Buffer.from(config.secret);

function eventBody(id: string): string {
  return JSON.stringify({
    id,
    type: 'call.incoming',
    created_at: new Date().toISOString(),
    data: {
      call: {
        id: `call_${id}`,
        direction: 'inbound',
        from: { number: '+15550000001', name: 'Caller' },
        to: { number: '+14440000002', name: 'Agent', user_id: 'usr_1' },
        status: 'ringing',
        timestamp: new Date().toISOString(),
        custom_data: { padding },
      },
    },
  });
}

function signedHeaders(id: string, body: string): string {
  const t = Math.floor(Date.now() / 1000);
  switch (config.scheme) {
    case 'service':
      return `service-signature: t=${t},v1=${hmac(config.secret, body).digest('hex')}\r\n`;
    case 'stripe':
      return `stripe-signature: t=${t},v1=${hmac(config.secret, `${t}.${body}`).digest('hex')}\r\n`;
    case 'standardwebhooks':
      return `webhook-id: ${id}\r\nwebhook-timestamp: ${t}\r\nwebhook-signature: v1,${hmac(standardKey, `${id}.${t}.${body}`).digest('base64')}\r\n`;
    case 'octokit':
      return `x-github-event: ping\r\nx-github-delivery: ${id}\r\nx-hub-signature-256: sha256=${hmac(config.secret, body).digest('hex')}\r\n`;
  }
}

function request(id: string): string {
  const body = eventBody(id);
  return (
    `POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n${signedHeaders(id, body)}\r\n${body}`
  );
}

/** One connection: sends `next()`'s request, waits for the whole answer, repeats until it gives none. */
function drive(next: () => string | undefined, onAnswer: (status: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port: config.port, noDelay: true });
    let buffer = '';
    const send = () => {
      const text = next();
      if (text === undefined) {
        socket.end();
        resolve();
      } else socket.write(text);
    };
    socket.setEncoding('latin1');
    socket.on('connect', send);
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.slice(0, end).toLowerCase();
        let length = 0;
        const declared = /content-length: *(\d+)/.exec(head);
        if (declared) length = Number(declared[1]);
        else if (head.includes('transfer-encoding: chunked')) {
          // The answers here are a few bytes: the last chunk's marker is the first `0\r\n\r\n`.
          const last = buffer.indexOf('0\r\n\r\n', end + 4);
          if (last < 0) return;
          length = last + 5 - (end + 4);
        }
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.slice(end + 4 + length);
        onAnswer(Number(head.slice(9, 12)));
        send();
      }
    });
  });
}

const byStatus: Record<string, number> = {};
let answered = 0;
let started = 0;
const start = performance.now();
const until = start + config.seconds * 1000;
const firstId = `evt_${tag}_0`;
await Promise.all(
  Array.from({ length: config.connections }, () =>
    drive(
      () => {
        if ((config.total !== undefined && started >= config.total) || performance.now() > until) return;
        return request(`evt_${tag}_${started++}`);
      },
      (status) => {
        answered++;
        byStatus[status] = (byStatus[status] ?? 0) + 1;
      },
    ),
  ),
);
const seconds = (performance.now() - start) / 1000;
const result: LoadResult = { answered, byStatus, seconds };
if (config.repeatFirst) {
  const once = [request(firstId)];
  await drive(
    () => once.pop(),
    (status) => {
      result.repeat = status;
    },
  );
}
process.stdout.write(`${JSON.stringify(result)}\n`);
