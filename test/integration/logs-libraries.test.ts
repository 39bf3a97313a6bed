import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger, Middleware } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import winston from 'winston';
import { CANARY } from '../helpers/canary.js';
import { expectNoSecretIn } from '../helpers/secret-scan.js';
import { serveSandbox } from './helpers.js';

/** A stream that keeps every chunk a logger library writes to it, as the text it would print. */
function sink() {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  });
  return { written, stream };
}

/** Each library as a user sets it up: its own JSON output, to a stream, at debug. */
const LIBRARIES: Array<{ name: string; make(stream: Writable): Logger; levelOf(record: string): string }> = [
  {
    name: 'pino',
    make: (stream) => pino({ level: 'debug' }, stream),
    levelOf: (record) => pino.levels.labels[(JSON.parse(record) as { level: number }).level] ?? '?',
  },
  {
    name: 'winston',
    make: (stream) =>
      winston.createLogger({
        level: 'debug',
        format: winston.format.json(),
        transports: [new winston.transports.Stream({ stream })],
      }),
    levelOf: (record) => (JSON.parse(record) as { level: string }).level,
  },
];

const messageOf = (record: string) => {
  const parsed = JSON.parse(record) as { msg?: string; message?: string };
  return parsed.msg ?? parsed.message ?? '';
};

describe.each(LIBRARIES)('$name, as given to the client', ({ make, levelOf }) => {
  it('receives each line at its level, over real HTTP, and what it writes holds no secret in any form', async () => {
    const { sandbox, client } = await serveSandbox({
      clients: [{ clientId: CANARY.clientId, clientSecret: CANARY.clientSecret }],
      apiKeys: [{ key: CANARY.apiKey }],
    });
    const { written, stream } = sink();
    const tokens = new Set<string>();
    const bearers: Middleware = (request, next) => {
      const value = request.headers.get('authorization')?.replace(/^Bearer /, '');
      if (value !== undefined && value !== CANARY.apiKey) tokens.add(value);
      return next(request);
    };
    const c = client({ logger: make(stream), logLevel: 'debug', middleware: [bearers] });
    sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status', status: 503, times: 1 });

    await c.calls.listRecent();
    await c.users.list();
    const [token] = tokens;
    expect(token).toEqual(expect.any(String));
    // The service echoes fields it does not know: every credential comes back in an error message.
    const echoed = { [token as string]: 1, [CANARY.clientSecret]: 1, [CANARY.apiKey]: 1 };
    await expect(c.calls.create({ to: '+14155550123' }, { extraBody: echoed })).rejects.toMatchObject({
      status: 400,
    });

    const lines = () => written.join('').split('\n').filter(Boolean);
    await expect
      .poll(() => lines().some((line) => /POST \/v2\/calls: failed/.test(messageOf(line))))
      .toBe(true);
    const records = lines().map((line) => `${levelOf(line)} ${messageOf(line)}`);
    expect(records).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^debug \[telephony-sdk\] req_\S+ POST \/v2\/oauth\/token attempt 0: .* → 200 /,
        ),
        expect.stringMatching(
          /^debug .* GET \/v2\/calls\/recent attempt 0: .* → 503 in \d+ ms; retry in \d+ ms/,
        ),
        expect.stringMatching(/^debug .* GET \/v2\/calls\/recent attempt 1: .* → 200 in \d+ ms; no retry$/),
        expect.stringMatching(/^info .* GET \/v2\/calls\/recent: 200 after 2 attempts in \d+ ms$/),
        expect.stringMatching(/^warn \[telephony-sdk\] warning v1_deprecated: /),
        expect.stringMatching(/^info .* POST \/v2\/calls: failed with BadRequestError .*\[redacted\]/),
      ]),
    );
    // Every byte the library wrote: its JSON escapes each line again, and no form of a secret survives.
    expectNoSecretIn(written, [CANARY.clientSecret, CANARY.apiKey, ...tokens]);
  });
});
