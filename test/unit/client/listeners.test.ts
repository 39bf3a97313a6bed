import { HttpResponse, http } from 'msw';
import { TelephonyClient } from 'telephony-sdk';
import { describe, expect, it, vi } from 'vitest';
import { BASE, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

const EVENTS = ['request', 'response', 'retry', 'token'] as const;

/** GET /v2/x answers 503 once, then 200; counts token and data requests. */
function flakyService() {
  const counts = { tokens: 0, hits: 0 };
  server.use(
    tokenHandler({ onRequest: () => counts.tokens++ }),
    http.get(`${BASE}/v2/x`, () =>
      ++counts.hits === 1 ? HttpResponse.json({}, { status: 503 }) : HttpResponse.json({ ok: counts.hits }),
    ),
  );
  return counts;
}

describe('listeners cannot break a call', () => {
  it.each(EVENTS)(
    "a throwing '%s' listener is ignored: the call succeeds and later listeners still run",
    async (name) => {
      const counts = flakyService();
      const client = testClient();
      const after = vi.fn();
      client.on(name, () => {
        throw new Error('listener bug');
      });
      client.on(name, after);
      await expect(client.request({ method: 'GET', path: '/v2/x' })).resolves.toEqual({ ok: 2 });
      expect(after).toHaveBeenCalled();
      expect(counts.hits).toBe(2);
    },
  );

  it("a throwing 'token' listener does not keep the token out of the cache: 3 calls, 1 token request", async () => {
    const counts = { tokens: 0, hits: 0 };
    server.use(
      tokenHandler({ onRequest: () => counts.tokens++ }),
      http.get(`${BASE}/v2/x`, () => HttpResponse.json({ ok: ++counts.hits })),
    );
    const client = testClient();
    client.on('token', () => {
      throw new Error('listener bug');
    });
    for (let i = 0; i < 3; i++) await client.request({ method: 'GET', path: '/v2/x' });
    expect(counts).toEqual({ tokens: 1, hits: 3 });
  });

  it('an async listener that rejects causes no unhandled rejection', async () => {
    flakyService();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const client = testClient();
      client.on('request', async () => {
        throw new Error('async listener bug');
      });
      await client.request({ method: 'GET', path: '/v2/x' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('on / once / off', () => {
  it('the client is not an EventEmitter: no public emit', () => {
    const client = testClient() as unknown as Record<string, unknown>;
    expect(client.emit).toBeUndefined();
    expect(client.listeners).toBeUndefined();
    expect(typeof client.on).toBe('function');
  });

  it('once runs for one event; off removes one listener or all of a name; on/once/off chain', async () => {
    flakyService();
    const client = testClient();
    const once = vi.fn();
    const removed = vi.fn();
    const kept = vi.fn();
    expect(
      client.once('request', once).on('request', removed).on('request', kept).off('request', removed),
    ).toBe(client);
    await client.request({ method: 'GET', path: '/v2/x' });
    // token request, first GET, retried GET
    expect(once).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledTimes(3);
    client.off('request');
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(kept).toHaveBeenCalledTimes(3);
  });

  it('a listener registered twice is called twice, and off removes both (eventemitter3 semantics)', async () => {
    flakyService();
    const client = new TelephonyClient({ baseUrl: BASE, accessToken: 'tok' });
    const listener = vi.fn();
    client.on('response', listener).on('response', listener);
    await client.request({ method: 'GET', path: '/v2/x' }, { maxRetries: 0 }).catch(() => {});
    expect(listener).toHaveBeenCalledTimes(2);
    client.off('response', listener);
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
