import { Writable } from 'node:stream';
import { HttpResponse, http } from 'msw';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import winston from 'winston';
import { DeferredLog } from '../../../src/core/logs/deferred-log.js';
import { environmentLevel, type Logger, type LogLevel, resolveLevel } from '../../../src/core/logs/level.js';
import { type AttemptLine, Log, withoutQuerySecrets } from '../../../src/core/logs/log.js';
import { redactor } from '../../../src/core/response/redact.js';
import { BASE, CANARY, SECRETS, testClient } from '../../helpers/client.js';
import { expectNoSecretIn, secretForms } from '../../helpers/secret-scan.js';
import { server } from '../../helpers/server.js';

/** A logger that keeps each line with its level. */
function recording() {
  const lines: string[] = [];
  const logger: Logger = {
    debug: (line) => lines.push(`debug ${line}`),
    info: (line) => lines.push(`info ${line}`),
    warn: (line) => lines.push(`warn ${line}`),
    error: (line) => lines.push(`error ${line}`),
  };
  return { lines, logger };
}

const hide = (text: string) => redactor(SECRETS)(text) as string;
/** The client's log as a client makes it, holding the canary secrets. */
const deferred = (logger: Logger, logLevel?: LogLevel) =>
  new DeferredLog({ logger, logLevel, secrets: () => SECRETS, patterns: new Map() });
const attempt: AttemptLine = {
  requestId: 'req_1',
  operation: 'calls.listRecent',
  method: 'GET',
  url: 'https://api.test/v2/calls/recent?limit=5',
  attempt: 0,
  status: 503,
  ms: 12,
  next: { retry: true, waitMs: 1000, reason: 'status 503' },
};

describe('log lines', () => {
  it('debug: one line per attempt with operation, method, URL, status, ms, attempt, requestId and the decision', () => {
    const { lines, logger } = recording();
    const log = new Log(logger, 'debug', hide);
    log.attempt(attempt);
    log.attempt({
      ...attempt,
      attempt: 1,
      status: undefined,
      error: 'APITimeoutError',
      next: { retry: false },
    });
    expect(lines).toEqual([
      'debug [telephony-sdk] req_1 calls.listRecent attempt 0: GET https://api.test/v2/calls/recent?limit=5 → 503 in 12 ms; retry in 1000 ms (status 503)',
      'debug [telephony-sdk] req_1 calls.listRecent attempt 1: GET https://api.test/v2/calls/recent?limit=5 → APITimeoutError in 12 ms; no retry',
    ]);
  });

  it('info: one line per call, resolved or rejected; warn: the warnings', () => {
    const { lines, logger } = recording();
    const log = new Log(logger, 'info', hide);
    log.call({ requestId: 'req_1', operation: 'users.get', attempts: 1, ms: 40, status: 200 });
    log.call({
      requestId: 'req_2',
      operation: 'calls.create',
      attempts: 3,
      ms: 2100,
      error: {
        name: 'RateLimitError',
        message: 'POST /v2/calls → 429 rate_limit_exceeded: slow',
        outcome: 'rejected',
      },
    });
    log.warning({ code: 'v1_deprecated', message: 'v1 is deprecated' });
    expect(lines).toEqual([
      'info [telephony-sdk] req_1 users.get: 200 after 1 attempt in 40 ms',
      'info [telephony-sdk] req_2 calls.create: failed with RateLimitError (outcome rejected): POST /v2/calls → 429 rate_limit_exceeded: slow after 3 attempts in 2100 ms',
      'warn [telephony-sdk] warning v1_deprecated: v1 is deprecated',
    ]);
  });

  it.each([
    ['off', []],
    ['error', []],
    ['warn', ['warn']],
    ['info', ['info', 'warn']],
    ['debug', ['debug', 'info', 'warn']],
  ] as const)('level %s writes %j', (level, written) => {
    const { lines, logger } = recording();
    const log = new Log(logger, level, hide);
    log.attempt(attempt);
    log.call({ requestId: 'r', operation: 'o', attempts: 1, ms: 1, status: 200 });
    log.warning({ code: 'c', message: 'm' });
    expect(lines.map((line) => line.split(' ')[0])).toEqual(written);
  });

  it('no line holds a secret in any form, nor a query parameter named like one', () => {
    const { lines, logger } = recording();
    const log = new Log(logger, 'debug', hide);
    for (const form of SECRETS.flatMap(secretForms)) {
      log.attempt({ ...attempt, url: `https://api.test/v2/x?q=${encodeURIComponent(form)}` });
      log.call({
        requestId: 'r',
        operation: 'o',
        attempts: 1,
        ms: 1,
        error: { name: 'E', message: `echo ${form}` },
      });
      log.warning({ code: 'c', message: form });
    }
    log.attempt({
      ...attempt,
      url: 'https://api.test/v2/x?X-Amz-Signature=SIG_42&access_token=tok_9&limit=2',
    });
    expect(lines).toHaveLength(SECRETS.flatMap(secretForms).length * 3 + 1);
    expectNoSecretIn(lines);
    expect(lines.at(-1)).toContain('?X-Amz-Signature=[redacted]&access_token=[redacted]&limit=2');
    expect(lines.join('\n')).not.toMatch(/SIG_42|tok_9/);
  });

  it('escapes control characters, so an answer cannot forge a line or a terminal sequence', () => {
    const { lines, logger } = recording();
    new Log(logger, 'info', hide).call({
      requestId: 'r',
      operation: 'o',
      attempts: 1,
      ms: 1,
      error: { name: 'APIError', message: 'boom\n[telephony-sdk] forged\u001b[31m' },
    });
    expect(lines).toEqual([
      'info [telephony-sdk] r o: failed with APIError: boom\\n[telephony-sdk] forged\\u001b[31m after 1 attempt in 1 ms',
    ]);
  });

  it('a logger that throws does not throw to the caller', () => {
    const broken: Logger = {
      debug: () => {
        throw new Error('disk full');
      },
      info() {},
      warn() {},
      error() {},
    };
    expect(() => new Log(broken, 'debug', hide).attempt(attempt)).not.toThrow();
  });

  it('withoutQuerySecrets keeps a URL without a query as is', () => {
    expect(withoutQuerySecrets('https://h/v2/x')).toBe('https://h/v2/x');
    expect(withoutQuerySecrets('https://h/v2/x?api%5Fkey=1&k')).toBe('https://h/v2/x?api%5Fkey=[redacted]&k');
  });
});

describe('pino and winston, as given', () => {
  it('pino writes each line at its level', () => {
    const records: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        records.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, stream);
    const log = new Log(logger, 'debug', hide);
    log.attempt(attempt);
    log.warning({ code: 'deprecated', message: 'm' });
    logger.flush();
    expect(records.map(({ level, msg }) => [level, msg])).toEqual([
      [20, expect.stringMatching(/^\[telephony-sdk\] req_1 calls\.listRecent attempt 0: GET /)],
      [40, '[telephony-sdk] warning deprecated: m'],
    ]);
  });

  it('winston writes each line at its level', () => {
    const records: Array<{ level: string; message: string }> = [];
    const stream = new Writable({
      objectMode: true,
      write(info, _encoding, done) {
        records.push({ level: info.level, message: info.message });
        done();
      },
    });
    const logger = winston.createLogger({
      level: 'debug',
      transports: [new winston.transports.Stream({ stream })],
    });
    const log = new Log(logger, 'debug', hide);
    log.call({ requestId: 'r', operation: 'o', attempts: 2, ms: 5, status: 200 });
    log.warning({ code: 'deprecated', message: 'm' });
    expect(records).toEqual([
      { level: 'info', message: '[telephony-sdk] r o: 200 after 2 attempts in 5 ms' },
      { level: 'warn', message: '[telephony-sdk] warning deprecated: m' },
    ]);
  });
});

describe('logLevel and TELEPHONY_LOG', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('the option wins, then the environment, then warn', () => {
    expect(resolveLevel('debug', 'off')).toEqual({ level: 'debug' });
    expect(resolveLevel(undefined, 'DEBUG')).toEqual({ level: 'debug' });
    expect(resolveLevel(undefined, undefined)).toEqual({ level: 'warn' });
    expect(resolveLevel(undefined, 'verbose')).toEqual({ level: 'warn', unknown: 'verbose' });
  });

  it('reads TELEPHONY_LOG from process.env', () => {
    vi.stubEnv('TELEPHONY_LOG', 'info');
    expect(environmentLevel()).toBe('info');
  });

  it('a runtime without process, or whose process.env throws, has no environment level', () => {
    vi.stubGlobal('process', undefined);
    expect(environmentLevel()).toBeUndefined();
    vi.stubGlobal('process', {
      get env(): never {
        throw new Error('process.env is not available here');
      },
    });
    expect(environmentLevel()).toBeUndefined();
  });

  it('a client at TELEPHONY_LOG=debug logs debug lines; an unknown value is said once and logs at warn', async () => {
    const { lines, logger } = recording();
    vi.stubEnv('TELEPHONY_LOG', 'debug');
    deferred(logger).attempt(attempt);
    await vi.dynamicImportSettled();
    expect(lines).toHaveLength(1);
    vi.stubEnv('TELEPHONY_LOG', `loud${CANARY.apiKey}`);
    const log = deferred(logger);
    log.attempt(attempt);
    await vi.dynamicImportSettled();
    expect(lines.slice(1)).toEqual([
      'warn [telephony-sdk] warning unknown_log_level: TELEPHONY_LOG="loud[redacted]" names no level (off, error, warn, info, debug): logging at warn',
    ]);
  });
});

describe('the client log loads its lines’ code when a line is due', () => {
  afterEach(() => {
    vi.doUnmock('../../../src/core/logs/log.js');
  });

  it('at the default level: no call or attempt line, and warnings written in the order given once loaded, then at once', async () => {
    const { lines, logger } = recording();
    const log = deferred(logger);
    expect([log.debugging, log.informing]).toEqual([false, false]);
    log.attempt(attempt);
    log.call({ requestId: 'req_1', operation: 'users.get', attempts: 1, ms: 40, status: 200 });
    log.warning({ code: 'first', message: 'one' });
    log.warning({ code: 'second', message: `two ${CANARY.apiKey}` });
    expect(lines).toEqual([]);
    await vi.dynamicImportSettled();
    expect(lines).toEqual([
      'warn [telephony-sdk] warning first: one',
      'warn [telephony-sdk] warning second: two [redacted]',
    ]);
    log.warning({ code: 'third', message: 'three' });
    expect(lines).toHaveLength(3);
  });

  it('a client logging its calls waits for that code before a call: every line is written by the time it settles', async () => {
    server.use(http.get(`${BASE}/v2/x`, () => HttpResponse.json({})));
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    vi.doMock('../../../src/core/logs/log.js', async (original) => {
      await opened;
      return original();
    });
    const { lines, logger } = recording();
    const client = testClient({ clientId: undefined, clientSecret: undefined, accessToken: 'tok_x', logger });
    let settled = false;
    const call = client.request({ method: 'GET', path: '/v2/x' }).finally(() => {
      settled = true;
    });
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    open();
    await call;
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['debug', 'info']);
  });

  it('a log whose code cannot load drops the lines it was given, and the next line loads it again', async () => {
    const { lines, logger } = recording();
    vi.doMock('../../../src/core/logs/log.js', () => {
      throw new Error('chunk failed to load');
    });
    const log = deferred(logger, 'info');
    log.warning({ code: 'lost', message: 'while loading' });
    await vi.dynamicImportSettled();
    vi.doUnmock('../../../src/core/logs/log.js');
    log.warning({ code: 'kept', message: 'after' });
    await vi.dynamicImportSettled();
    expect(lines).toEqual(['warn [telephony-sdk] warning kept: after']);
  });
});
