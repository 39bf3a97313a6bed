import { RateLimitError, TelephonyClient } from 'telephony-sdk';
import {
  createSandbox,
  type ListeningSandbox,
  type RateUsage,
  type SandboxOptions,
} from 'telephony-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { rawSandbox } from './helpers.js';

const RECENT = '/v2/calls/recent';

/** The report entry of one budget. */
function usageOf(report: RateUsage[], version: 'v1' | 'v2', id: string): RateUsage {
  const usage = report.find((entry) => entry.version === version && entry.id === id);
  if (!usage) throw new Error(`no ${version} budget ${id}`);
  return usage;
}

/** A sandbox with one application `app` and one API key `key`, both at `requestsPerMinute`. */
function paced(requestsPerMinute: number, extra: SandboxOptions = {}) {
  const raw = rawSandbox({
    clients: [{ clientId: 'app', clientSecret: 's', plan: { requestsPerMinute } }],
    apiKeys: [{ key: 'key', plan: { requestsPerMinute } }],
    ...extra,
  });
  const token = async () => (await raw.tokenFor({ client_id: 'app', client_secret: 's' })).access_token;
  return { ...raw, token };
}

/** The largest number of `times` in any window (t - 60 s, t], by brute force. */
function bruteMaxWindow(times: number[]): number {
  let max = 0;
  for (const end of times) max = Math.max(max, times.filter((at) => at > end - 60_000 && at <= end).length);
  return max;
}

describe('rate budget per principal', () => {
  it('every token of one application draws on one budget; another application has its own', async () => {
    const { sandbox, send, tokenFor } = rawSandbox({
      clients: [
        { clientId: 'a', clientSecret: 's', plan: { requestsPerMinute: 6 } },
        { clientId: 'b', clientSecret: 's', plan: { requestsPerMinute: 6 } },
      ],
    });
    const tokens = await Promise.all([1, 2, 3].map(() => tokenFor({ client_id: 'a', client_secret: 's' })));
    for (const { access_token } of tokens) {
      expect((await send('GET', RECENT, access_token)).status).toBe(200);
      expect((await send('GET', RECENT, access_token)).status).toBe(200);
    }
    for (const { access_token } of tokens) expect((await send('GET', RECENT, access_token)).status).toBe(429);
    const other = await tokenFor({ client_id: 'b', client_secret: 's' });
    expect((await send('GET', RECENT, other.access_token)).status).toBe(200);

    const report = sandbox.rateReport();
    expect(usageOf(report, 'v2', 'a')).toEqual({
      version: 'v2',
      id: 'a',
      plan: { requestsPerMinute: 6 },
      limit: 6,
      counted: 6,
      rejected: 3,
      maxInWindow: 6,
      tokensIssued: 3,
    });
    expect(usageOf(report, 'v2', 'b')).toMatchObject({
      counted: 1,
      rejected: 0,
      maxInWindow: 1,
      tokensIssued: 1,
    });
  });

  it('v1 has its own budget per API key, apart from the applications (even one named like a key)', async () => {
    const { sandbox, send, tokenFor } = rawSandbox({
      clients: [{ clientId: 'same', clientSecret: 's', plan: { requestsPerMinute: 2 } }],
      apiKeys: [
        { key: 'same', plan: { requestsPerMinute: 2 } },
        { key: 'other', plan: { requestsPerMinute: 2 } },
      ],
    });
    const { access_token } = await tokenFor({ client_id: 'same', client_secret: 's' });
    for (let i = 0; i < 2; i++) expect((await send('GET', RECENT, access_token)).status).toBe(200);
    expect((await send('GET', RECENT, access_token)).status).toBe(429);
    for (let i = 0; i < 2; i++) expect((await send('GET', '/v1/users', 'same')).status).toBe(200);
    expect((await send('GET', '/v1/users', 'same')).status).toBe(429);
    expect((await send('GET', '/v1/users', 'other')).status).toBe(200);

    expect(
      sandbox.rateReport().map(({ version, id, counted, rejected }) => [version, id, counted, rejected]),
    ).toEqual([
      ['v2', 'same', 2, 1],
      ['v1', 'same', 2, 1],
      ['v1', 'other', 1, 0],
    ]);
  });

  it('the token endpoint is not counted (tokensIssued shows it); 401s are not, 403s and 404s are', async () => {
    const { sandbox, send, tokenFor, token } = paced(3);
    for (let i = 0; i < 5; i++) await token();
    expect((await tokenFor({ client_id: 'app', client_secret: 'wrong' })) as unknown).toMatchObject({
      code: 'unauthorized',
    });
    const narrow = (await tokenFor({ client_id: 'app', client_secret: 's', scope: 'contacts:read' }))
      .access_token;
    expect((await send('GET', RECENT, 'not-a-token')).status).toBe(401);
    expect((await send('GET', RECENT, narrow)).status).toBe(403);
    expect((await send('GET', '/v2/contacts', narrow)).status).toBe(404);
    expect((await send('GET', RECENT, await token())).status).toBe(200);
    expect((await send('GET', RECENT, await token())).status).toBe(429);
    expect(usageOf(sandbox.rateReport(), 'v2', 'app')).toMatchObject({
      counted: 3,
      rejected: 1,
      tokensIssued: 8,
    });
  });
});

describe('429 at the limit', () => {
  it('a chosen rate: Retry-After and the message give the seconds until the oldest request leaves', async () => {
    const { sandbox, send, token } = paced(3);
    const bearer = await token();
    const start = sandbox.clock.now();
    for (let i = 0; i < 3; i++) {
      expect((await send('GET', RECENT, bearer)).status).toBe(200);
      await sandbox.advance(10_000);
    }
    const limited = await send('GET', RECENT, bearer);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.body).toEqual({
      status: 'error',
      code: 'rate_limit_exceeded',
      message: 'Rate limit of 3 requests per minute exceeded. Retry in 30 seconds.',
    });
    // The window is (now - 60 s, now]: 1 ms before the first request's minute is up there is still
    // no slot (Retry-After rounds up to 1 s); at exactly 60 s there is one.
    await sandbox.advance(start + 59_999 - sandbox.clock.now());
    const almost = await send('GET', RECENT, bearer);
    expect([almost.status, almost.headers.get('retry-after')]).toEqual([429, '1']);
    await sandbox.advance(1);
    expect((await send('GET', RECENT, bearer)).status).toBe(200);
    expect((await send('GET', RECENT, bearer)).status).toBe(429);
  });

  it('v1 answers its 429 in the v1 error shape', async () => {
    const { send } = paced(1);
    expect((await send('GET', '/v1/users', 'key')).status).toBe(200);
    const limited = await send('GET', '/v1/users', 'key');
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.body).toEqual({
      status: 'error',
      error: {
        code: 'rate_limit_exceeded',
        message: 'Rate limit of 1 requests per minute exceeded. Retry in 60 seconds.',
        status_code: 429,
      },
    });
  });

  it('named plans keep SPEC.md rates; the default is starter', () => {
    const sandbox = createSandbox({
      clients: [
        { clientId: 'd', clientSecret: 's' },
        { clientId: 'p', clientSecret: 's', plan: 'pro' },
        { clientId: 'e', clientSecret: 's', plan: 'enterprise' },
      ],
    });
    expect(sandbox.rateReport().map(({ id, plan, limit }) => [id, plan, limit])).toEqual([
      ['d', 'starter', 100],
      ['p', 'pro', 500],
      ['e', 'enterprise', 2000],
      ['sandbox_api_key', 'starter', 100],
    ]);
  });

  it('a plan that is not one refuses to create the sandbox, without naming an API key', () => {
    const client = (plan: unknown) => ({ clientId: 'c', clientSecret: 's', plan }) as never;
    expect(() => createSandbox({ clients: [client('gold')] })).toThrow(/Unknown plan for client "c"/);
    for (const requestsPerMinute of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5']) {
      expect(() => createSandbox({ clients: [client({ requestsPerMinute })] })).toThrow(RangeError);
    }
    const error = (() => {
      try {
        createSandbox({ apiKeys: [{ key: 'SECRET_KEY', plan: { requestsPerMinute: 0 } }] });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain('apiKeys[0]');
    expect(error?.message).not.toContain('SECRET_KEY');
  });
});

describe('rateReport: the largest 60-second window', () => {
  it('a known burst pattern', async () => {
    const { sandbox, send, token } = paced(10);
    const bearer = await token();
    const start = sandbox.clock.now();
    const statuses: number[] = [];
    const burst = async (atMs: number, count: number) => {
      await sandbox.advance(start + atMs - sandbox.clock.now());
      for (let i = 0; i < count; i++) statuses.push((await send('GET', RECENT, bearer)).status);
    };
    await burst(0, 3); // window ending here: 3
    await burst(30_000, 4); // 7
    await burst(59_999, 2); // 9
    await burst(60_000, 3); // the 3 at 0 s have left: 4 + 2 + 3 = 9
    await burst(89_999, 2); // 4 + 2 + 3 + 1 = 10, then one 429
    await burst(90_000, 1); // the 4 at 30 s have left: 2 + 3 + 1 + 1 = 7
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(usageOf(sandbox.rateReport(), 'v2', 'app')).toMatchObject({
      limit: 10,
      counted: 14,
      rejected: 1,
      maxInWindow: 10,
    });
  });

  it('a window that never fills: maxInWindow is below the limit', async () => {
    const { sandbox, send, token } = paced(100);
    const bearer = await token();
    for (let i = 0; i < 30; i++) {
      await send('GET', RECENT, bearer);
      await sandbox.advance(5_000); // 12 requests a minute
    }
    expect(usageOf(sandbox.rateReport(), 'v2', 'app')).toMatchObject({ counted: 30, maxInWindow: 12 });
  });

  it('equals a brute-force count over the admitted requests of a long irregular run', async () => {
    const { sandbox, send, token } = paced(40);
    let bearer = await token();
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const admitted: number[] = [];
    let rejected = 0;
    // Over 1024 requests leave the window: the limiter compacts what it keeps, and stays exact.
    for (let i = 0; i < 3_000; i++) {
      // Mostly quick bursts, now and then a long pause: windows both full and sparse.
      await sandbox.advance(random() < 0.05 ? Math.floor(random() * 90_000) : Math.floor(random() * 2_500));
      let { status } = await send('GET', RECENT, bearer);
      if (status === 401) {
        // The run outlasts a token (3600 s); a 401 is not counted, nor is the token request.
        bearer = await token();
        ({ status } = await send('GET', RECENT, bearer));
      }
      if (status === 200) admitted.push(sandbox.clock.now());
      else if (status === 429) rejected++;
    }
    expect(admitted.length + rejected).toBe(3_000);
    expect(admitted.length).toBeGreaterThan(2_048);
    expect(rejected).toBeGreaterThan(0);
    expect(usageOf(sandbox.rateReport(), 'v2', 'app')).toMatchObject({
      counted: admitted.length,
      rejected,
      maxInWindow: bruteMaxWindow(admitted),
    });
    expect(bruteMaxWindow(admitted)).toBe(40);
  });

  it('a long run held at the limit: each step one request gets in, and once full the next is refused', async () => {
    const { sandbox, send, token } = paced(40);
    const bearer = await token();
    // 1.5 s apart, 40 requests fill exactly 60 s; past 1024 of them the limiter compacts its window.
    for (let i = 0; i < 1_100; i++) {
      expect((await send('GET', RECENT, bearer)).status).toBe(200);
      if (i >= 39) expect((await send('GET', RECENT, bearer)).status).toBe(429);
      await sandbox.advance(1_500);
    }
    expect(usageOf(sandbox.rateReport(), 'v2', 'app')).toMatchObject({
      counted: 1_100,
      rejected: 1_100 - 39,
      maxInWindow: 40,
    });
  });

  it('is a snapshot: later requests do not change a report already taken', async () => {
    const { sandbox, send, token } = paced(5);
    const before = sandbox.rateReport();
    await send('GET', RECENT, await token());
    expect(usageOf(before, 'v2', 'app').counted).toBe(0);
    expect(usageOf(sandbox.rateReport(), 'v2', 'app').counted).toBe(1);
  });
});

describe('over real HTTP, several SDK clients of one application', () => {
  const servers: ListeningSandbox[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('share one budget; v1 keeps its own; the report counts them all', async () => {
    const plan = { requestsPerMinute: 5 };
    const sandbox = createSandbox({
      clients: [{ clientId: 'app', clientSecret: 's', plan }],
      apiKeys: [{ key: 'key', plan }],
    });
    const server = await sandbox.listen();
    servers.push(server);
    const client = () =>
      new TelephonyClient({
        baseUrl: server.url,
        baseUrlV1: server.url,
        ...sandbox.credentials,
        maxRetries: 0,
        // The client waits out a 429's pause on its clock: on the sandbox's, a wait moves sandbox time.
        clock: sandbox.clientClock,
      });
    const [first, second] = [client(), client()];
    const recent = { method: 'GET', path: RECENT } as const;
    for (let i = 0; i < 3; i++) await first.request(recent);
    for (let i = 0; i < 2; i++) await second.request(recent);
    for (const sdk of [first, second]) {
      const error = await sdk.request(recent).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, retryAfter: 60 });
    }
    await expect(first.request({ method: 'GET', path: '/v1/users' })).resolves.toMatchObject({
      status: 'success',
    });

    await sandbox.advance(60_000);
    await expect(second.request(recent)).resolves.toMatchObject({ status: 'success' });
    expect(sandbox.rateReport()).toEqual([
      { version: 'v2', id: 'app', plan, limit: 5, counted: 6, rejected: 2, maxInWindow: 5, tokensIssued: 2 },
      { version: 'v1', id: 'key', plan, limit: 5, counted: 1, rejected: 0, maxInWindow: 1, tokensIssued: 0 },
    ]);
    sandbox.close();
  });
});
