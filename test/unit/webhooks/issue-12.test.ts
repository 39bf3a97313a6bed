import { MemoryDedupStore, TelephonyError, WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { body, header, NOW, SECRET } from './helpers.js';

describe('issue 12: settings', () => {
  it('refuses a handlerTimeout over an hour, saying it is in seconds', () => {
    expect(() => new WebhookReceiver({ secret: SECRET, handlerTimeout: 30_000 })).toThrow(
      'handlerTimeout is in seconds: 30000 would be 8.3 hours',
    );
    expect(() => new WebhookReceiver({ secret: SECRET, handlerTimeout: 3601 })).toThrow(TelephonyError);
    // An hour, and Infinity (no timer), are still accepted.
    expect(() => new WebhookReceiver({ secret: SECRET, handlerTimeout: 3600 })).not.toThrow();
    expect(
      () => new WebhookReceiver({ secret: SECRET, handlerTimeout: Number.POSITIVE_INFINITY }),
    ).not.toThrow();
  });

  it('MemoryDedupStore refuses a maxSize that is not a positive integer', () => {
    for (const maxSize of [Number.NaN, Number.POSITIVE_INFINITY, 0, -1, 1.5])
      expect(() => new MemoryDedupStore({ maxSize })).toThrow(
        new TelephonyError('maxSize must be a positive integer'),
      );
    expect(() => new MemoryDedupStore({ maxSize: 1 })).not.toThrow();
  });
});

describe('issue 12: MemoryDedupStore eviction warning', () => {
  afterEach(() => vi.restoreAllMocks());

  it('warns once per store when an id is evicted before its ttl, naming the shared store', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const store = new MemoryDedupStore({ maxSize: 2, now: () => 0 });
    store.add('a', 10);
    store.add('b', 10);
    expect(warn).not.toHaveBeenCalled();
    store.add('c', 10);
    store.add('d', 10);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /maxSize.*redisDedupStore.*telephony-sdk\/redis.*DedupStore/s,
    );
    // Another store warns for itself.
    const other = new MemoryDedupStore({ maxSize: 1, now: () => 0 });
    other.add('a', 10);
    other.add('b', 10);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('does not warn when the evicted id had already expired', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    let now = 0;
    const store = new MemoryDedupStore({ maxSize: 1, now: () => now });
    store.add('a', 10);
    now = 10_000;
    store.add('b', 10);
    expect(warn).not.toHaveBeenCalled();
  });

  it('does not throw where there is no process (browsers, Workers)', () => {
    const saved = globalThis.process;
    // biome-ignore lint/suspicious/noExplicitAny: removing the global for the test
    (globalThis as any).process = undefined;
    try {
      const store = new MemoryDedupStore({ maxSize: 1, now: () => 0 });
      store.add('a', 10);
      expect(() => store.add('b', 10)).not.toThrow();
    } finally {
      globalThis.process = saved;
    }
  });
});

describe('issue 12: fetchHandler with a body already read', () => {
  it('answers 500 with an explanation instead of rejecting', async () => {
    const raw = body();
    const request = new Request('https://example.test/webhooks', {
      method: 'POST',
      headers: { 'service-signature': header(raw) },
      body: raw,
    });
    await request.text();
    const receiver = new WebhookReceiver({ secret: SECRET, now: NOW });
    const response = await receiver.fetchHandler(request);
    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/already read.*clone\(\)/s);
  });
});

describe('issue 12: maxEventAge', () => {
  // helpers' event was created at NOW (2025-11-13T02:13:20Z); the header's t is always NOW.
  const deliver = async (options: object, createdAt: unknown, now = NOW) => {
    const raw = JSON.stringify({ id: 'evt_age', type: 'call.missed', created_at: createdAt, data: {} });
    const receiver = new WebhookReceiver({ secret: SECRET, now, ...options });
    const ran: string[] = [];
    const failed: unknown[] = [];
    receiver.on('*', (event) => void ran.push(event.id));
    receiver.on('verification_failed', (info) => void failed.push(info));
    const result = await receiver.handle({
      body: raw,
      headers: { 'service-signature': header(raw, SECRET, now) },
    });
    return { result, ran, failed };
  };
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

  it('refuses an event older than maxEventAge: 400 event_too_old, handlers not run', async () => {
    const { result, ran, failed } = await deliver({ maxEventAge: 60 }, iso(NOW - 61));
    expect(result).toEqual({ status: 400, reason: 'event_too_old', body: '{"error":"event_too_old"}' });
    expect(ran).toEqual([]);
    expect(failed).toEqual([{ reason: 'event_too_old', status: 400 }]);
  });

  it('accepts a fresh event: 200', async () => {
    expect((await deliver({ maxEventAge: 60 }, iso(NOW - 60))).result.status).toBe(200);
    expect((await deliver({}, iso(NOW))).ran).toEqual(['evt_age']);
  });

  it('defaults to dedupTtl', async () => {
    expect((await deliver({ dedupTtl: 100 }, iso(NOW - 100))).result.status).toBe(200);
    expect((await deliver({ dedupTtl: 100 }, iso(NOW - 101))).result.reason).toBe('event_too_old');
    expect((await deliver({}, iso(NOW - 86_400))).result.status).toBe(200);
    expect((await deliver({}, iso(NOW - 86_401))).result.reason).toBe('event_too_old');
  });

  it('refuses a missing or unparseable created_at as event_too_old (its age cannot be bounded)', async () => {
    for (const createdAt of [undefined, null, 'yesterday', ''])
      expect((await deliver({}, createdAt)).result).toMatchObject({ status: 400, reason: 'event_too_old' });
  });

  it('issue 18: refuses a maxEventAge longer than dedupTtl at construction, naming both', () => {
    const attempt = (options: object) => () => new WebhookReceiver({ secret: SECRET, ...options });
    expect(attempt({ maxEventAge: 86_401 })).toThrow(TelephonyError);
    expect(attempt({ maxEventAge: 86_401 })).toThrow(/maxEventAge.*dedupTtl/);
    expect(attempt({ dedupTtl: 60, maxEventAge: 61 })).toThrow(/maxEventAge.*dedupTtl/);
    expect(attempt({ dedupTtl: 60, maxEventAge: Number.POSITIVE_INFINITY })).toThrow(/maxEventAge.*dedupTtl/);
    expect(attempt({ dedupTtl: 60, maxEventAge: 60 })).not.toThrow();
    expect(attempt({ dedupTtl: 60 })).not.toThrow();
    expect(attempt({ maxEventAge: 86_400 })).not.toThrow();
  });

  it('refuses a maxEventAge that is not a positive number', () => {
    for (const maxEventAge of [0, -1, Number.NaN])
      expect(() => new WebhookReceiver({ secret: SECRET, maxEventAge })).toThrow(
        'maxEventAge must be a positive number',
      );
  });
});
