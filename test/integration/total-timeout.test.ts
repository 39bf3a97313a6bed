import { APITimeoutError, RateLimitError, type TelephonyError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { serveSandbox } from './helpers.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as TelephonyError,
  );

/** Requests the sandbox counted for a principal (the token endpoint is not counted). */
const counted = (sandbox: { rateReport(): Array<{ version: string; counted: number; rejected: number }> }) =>
  sandbox.rateReport().find((usage) => usage.version === 'v2') ?? { counted: 0, rejected: 0 };

// Each wait here runs on the sandbox's client clock (serveSandbox): a wait the SDK makes moves the
// clock by exactly that much and `waits` records it; nothing really sleeps.
describe('totalTimeout over real HTTP against the sandbox', () => {
  it('a wait for rate budget that would pass it rejects at once, and spends no budget', async () => {
    const { sandbox, client, waits } = await serveSandbox();
    const c = client({ rateLimit: { requestsPerMinute: 1 } });
    await c.calls.listRecent();
    expect(counted(sandbox).counted).toBe(1);
    const error = await failure(c.calls.listRecent({}, { totalTimeout: 5_000 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.message).toBe('GET /v2/calls/recent passed its totalTimeout of 5000 ms');
    expect(error.outcome).toBe('not_sent');
    expect(error.attempts).toEqual([]);
    expect(waits).toEqual([]);
    expect(counted(sandbox).counted).toBe(1);
    // The refused call took no slot: the next call waits out the same window, not one behind it.
    await c.calls.listRecent();
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(55_000);
    expect(waits[0]).toBeLessThanOrEqual(61_000);
    expect(counted(sandbox)).toMatchObject({ counted: 2, rejected: 0 });
  });

  it("a 429's pause that would pass it rejects the next call at once, before it is sent", async () => {
    const { sandbox, client, waits } = await serveSandbox();
    const c = client({ maxRetries: 0 });
    sandbox.injectFault({ path: '/v2/calls/recent', kind: 'rate_limit', retryAfter: 30, times: 1 });
    await expect(c.calls.listRecent()).rejects.toBeInstanceOf(RateLimitError);
    const before = counted(sandbox);
    const error = await failure(c.calls.get('call_1', { totalTimeout: 10_000 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.message).toBe('GET /v2/calls/call_1 passed its totalTimeout of 10000 ms');
    expect(error.outcome).toBe('not_sent');
    expect(error.attempts).toEqual([]);
    expect(waits).toEqual([]);
    expect(counted(sandbox)).toEqual(before);
    // Without a deadline the same call waits out the pause (on the client clock) and is answered.
    await expect(c.calls.get('call_1')).rejects.toMatchObject({ status: 404 });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(25_000);
  });

  it('a Retry-After on v2 that would pass it rejects at once, after the one attempt', async () => {
    const { sandbox, client, waits } = await serveSandbox();
    const fault = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'rate_limit', retryAfter: 30 });
    const error = await failure(client().calls.listRecent({}, { totalTimeout: 10_000 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.outcome).toBe('not_sent');
    expect(error.attempts).toMatchObject([{ status: 429 }]);
    expect(fault.hits).toBe(1);
    expect(waits).toEqual([]);
  });

  it('bounds the token request: a token endpoint that never answers fails the call by its deadline', async () => {
    const { sandbox, client } = await serveSandbox();
    const hang = sandbox.injectFault({ path: '/v2/oauth/token', kind: 'hang' });
    const listed = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status', status: 500 });
    // The attempt's own timeout (60 s) is far off: only the call's deadline can end this one.
    const c = client({ timeout: 60_000, totalTimeout: 300 });
    const error = await failure(c.calls.listRecent());
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.message).toBe('GET /v2/calls/recent passed its totalTimeout of 300 ms');
    expect(error.outcome).toBe('not_sent');
    expect(hang.hits).toBeGreaterThanOrEqual(1);
    expect(listed.hits).toBe(0);
  });

  it("a token request's Retry-After waits count against the call's deadline", async () => {
    const { sandbox, client, waits } = await serveSandbox();
    const fault = sandbox.injectFault({ path: '/v2/oauth/token', kind: 'rate_limit', retryAfter: 30 });
    const listed = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status', status: 500 });
    const error = await failure(client({ totalTimeout: 10_000 }).calls.listRecent());
    // The token request is shared by every call waiting for a token, so it waits out its own
    // Retry-After (on the client clock) for them; this call's deadline passed meanwhile.
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.message).toBe('GET /v2/calls/recent passed its totalTimeout of 10000 ms');
    expect(error.outcome).toBe('not_sent');
    expect(fault.hits).toBe(3);
    expect(waits).toEqual([30_000, 30_000]);
    expect(listed.hits).toBe(0);
  });
});
