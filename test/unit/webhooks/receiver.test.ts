import {
  type AnyReceivedWebhookEvent,
  type CallEventData,
  type CallIncomingEvent,
  type DedupStore,
  MemoryDedupStore,
  TelephonyError,
  type WebhookEvent,
  WebhookReceiver,
  type WebhookReceiverEvents,
} from 'telephony-sdk/webhooks';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { body, header, NOW, SECRET } from './helpers.js';

const delivery = (event?: object, headerName = 'Service-Signature') => {
  const raw = body(event);
  return { body: raw, headers: { [headerName]: header(raw) } };
};

function receiver(options: Partial<ConstructorParameters<typeof WebhookReceiver>[0]> = {}) {
  const r = new WebhookReceiver({ secret: SECRET, now: NOW, ...options });
  const seen: { name: string; info: unknown }[] = [];
  for (const name of ['verification_failed', 'duplicate', 'handler_error', 'store_error'] as const)
    r.on(name, (info: unknown) => seen.push({ name, info }));
  return { r, seen };
}

describe('WebhookReceiver.handle', () => {
  it('runs type-specific and catch-all handlers, typed, and answers 200', async () => {
    const { r } = receiver();
    const calls: string[] = [];
    r.on('call.incoming', (event) => {
      calls.push(`typed:${event.data.call.from.number}`);
    });
    r.on('call.missed', () => {
      calls.push('missed');
    });
    r.on('*', async (event) => {
      calls.push(`any:${event.type}`);
    });
    const result = await r.handle(delivery());
    expect(result.status).toBe(200);
    expect(calls.sort()).toEqual(['any:call.incoming', 'typed:+15551234567']);
  });

  it('finds the header in a Headers object and in any case', async () => {
    const { r } = receiver();
    const d = delivery();
    expect((await r.handle({ body: d.body, headers: new Headers(d.headers) })).status).toBe(200);
    const { r: r2 } = receiver();
    expect((await r2.handle(delivery(undefined, 'SERVICE-SIGNATURE'))).status).toBe(200);
  });

  it('answers 400/401 as verification says and emits verification_failed without secrets', async () => {
    const { r, seen } = receiver();
    let ran = 0;
    r.on('*', () => {
      ran++;
    });
    const raw = body();
    expect(await r.handle({ body: raw, headers: {} })).toEqual({
      status: 400,
      reason: 'missing_header',
      body: '{"error":"missing_header"}',
    });
    expect((await r.handle({ body: raw, headers: { 'service-signature': 'x' } })).status).toBe(400);
    const wrong = { 'service-signature': header(raw, 'wrong') };
    expect(await r.handle({ body: raw, headers: wrong })).toEqual({
      status: 401,
      reason: 'signature_mismatch',
      body: '{"error":"signature_mismatch"}',
    });
    expect(ran).toBe(0);
    expect(seen.map((s) => s.info)).toEqual([
      { reason: 'missing_header', status: 400 },
      { reason: 'malformed_header', status: 400 },
      { reason: 'signature_mismatch', status: 401 },
    ]);
    expect(JSON.stringify(seen)).not.toContain('canary');
  });

  it('a processed id answers 200 without running handlers again', async () => {
    const { r, seen } = receiver();
    let ran = 0;
    r.on('call.incoming', () => {
      ran++;
    });
    expect((await r.handle(delivery())).status).toBe(200);
    expect(await r.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(ran).toBe(1);
    expect(seen).toEqual([{ name: 'duplicate', info: { id: 'evt_1', type: 'call.incoming' } }]);
  });

  it('a failing handler answers 500, does not remember the id, and the re-delivery runs handlers again', async () => {
    const { r, seen } = receiver();
    let attempts = 0;
    const failure = new Error('db down');
    r.on('call.incoming', async () => {
      attempts++;
      if (attempts === 1) throw failure;
    });
    let others = 0;
    r.on('*', () => {
      others++;
    });
    // The body to answer names the reason as the adapters' bodies do (never the error's message).
    expect(await r.handle(delivery())).toMatchObject({ status: 500, body: '{"error":"handler_failed"}' });
    expect(seen).toEqual([
      { name: 'handler_error', info: { id: 'evt_1', type: 'call.incoming', error: failure } },
    ]);
    const processed = await r.handle(delivery());
    expect(processed.status).toBe(200);
    expect(processed).not.toHaveProperty('body');
    expect(attempts).toBe(2);
    expect(others).toBe(2);
    const duplicate = await r.handle(delivery());
    expect(duplicate).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(duplicate).not.toHaveProperty('body');
    expect(attempts).toBe(2);
  });

  it('a synchronous throw is a 500 too, and all handlers are awaited together', async () => {
    const { r } = receiver();
    let slowDone = false;
    r.on('*', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      slowDone = true;
    });
    r.on('call.incoming', () => {
      throw new Error('sync');
    });
    expect((await r.handle(delivery())).status).toBe(500);
    expect(slowDone).toBe(true);
  });

  it('two concurrent deliveries of one id run handlers once; a failure is shared so the service retries', async () => {
    const { r } = receiver();
    let ran = 0;
    let release = () => {};
    r.on('call.incoming', () => {
      ran++;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const first = r.handle(delivery());
    const second = r.handle(delivery());
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await Promise.all([first, second])).map((x) => x.status)).toEqual([200, 200]);
    expect(ran).toBe(1);

    const { r: failing } = receiver();
    let runs = 0;
    failing.on('*', async () => {
      runs++;
      throw new Error('x');
    });
    const results = await Promise.all([failing.handle(delivery()), failing.handle(delivery())]);
    expect(results.map((x) => x.status)).toEqual([500, 500]);
    expect(runs).toBe(1);
    expect((await failing.handle(delivery())).status).toBe(500);
    expect(runs).toBe(2);
  });

  it('once() handlers run for one event only; off() removes', async () => {
    const { r } = receiver();
    const log: string[] = [];
    r.once('call.incoming', () => {
      log.push('once');
    });
    const always = () => {
      log.push('always');
    };
    r.on('call.incoming', always);
    await r.handle(delivery());
    await r.handle(delivery({ ...JSON.parse(body()), id: 'evt_2' }));
    r.off('call.incoming', always);
    await r.handle(delivery({ ...JSON.parse(body()), id: 'evt_3' }));
    expect(log).toEqual(['once', 'always', 'always']);
  });

  it('a once() handler that fails is not spent: the re-delivery runs it again, then it is gone', async () => {
    const { r } = receiver();
    let runs = 0;
    r.once('call.incoming', () => {
      if (++runs === 1) throw new Error('db down');
    });
    expect((await r.handle(delivery())).status).toBe(500);
    expect((await r.handle(delivery())).status).toBe(200);
    expect(runs).toBe(2);
    expect(r.listenerCount('call.incoming')).toBe(0);
    await r.handle(delivery({ ...JSON.parse(body()), id: 'evt_2' }));
    expect(runs).toBe(2);
  });

  it('calls a handler with the context it was registered with', async () => {
    const { r } = receiver();
    const router = {
      seen: [] as string[],
      onCall(this: { seen: string[] }, event: CallIncomingEvent) {
        this.seen.push(event.id);
      },
    };
    r.on('call.incoming', router.onCall, router);
    r.once('*', router.onCall as (event: AnyReceivedWebhookEvent) => void, router);
    expect((await r.handle(delivery())).status).toBe(200);
    expect(router.seen).toEqual(['evt_1', 'evt_1']);
    expect([r.listenerCount('call.incoming'), r.listenerCount('*')]).toEqual([1, 0]);
  });

  it('a handler that never settles answers 500 after handlerTimeout; while it runs, a re-delivery answers 409 and runs nothing', async () => {
    vi.useFakeTimers();
    try {
      const { r, seen } = receiver({ handlerTimeout: 5 });
      let runs = 0;
      r.on('call.incoming', () => (++runs === 1 ? new Promise(() => {}) : undefined));
      const first = r.handle(delivery());
      await vi.advanceTimersByTimeAsync(4_999);
      const joined = r.handle(delivery());
      await vi.advanceTimersByTimeAsync(1);
      expect(await first).toMatchObject({ status: 500, reason: 'handler_error' });
      expect(await joined).toMatchObject({ status: 500, reason: 'handler_error' });
      expect(seen[0]).toMatchObject({ name: 'handler_error', info: { id: 'evt_1' } });
      expect(String((seen[0]?.info as { error?: unknown } | undefined)?.error)).toContain(
        'not processed within 5 s',
      );
      // Issue 18: the hung handler still runs, so its claim holds (before, this ran the handler again).
      expect(await r.handle(delivery())).toMatchObject({ status: 409, reason: 'in_progress' });
      expect(runs).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a hung store is cut off by handlerTimeout too', async () => {
    vi.useFakeTimers();
    try {
      const hung = { has: () => new Promise<boolean>(() => {}), add: () => {} };
      const { r } = receiver({ handlerTimeout: 1, store: hung });
      const answer = r.handle(delivery());
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await answer).toMatchObject({ status: 500, reason: 'handler_error' });
    } finally {
      vi.useRealTimers();
    }
  });

  // Issue 19: before, with handlerTimeout Infinity a hung store held the delivery for ever (this test
  // asserted it), and with the default 30 s the service waited that long.
  const never = <T>() => new Promise<T>(() => {});
  it.each<[string, DedupStore]>([
    ['has', { has: () => never<boolean>(), add: () => {} }],
    ['add', { has: () => false, add: () => never<void>() }],
    ['claim', { has: () => false, add: () => {}, claim: () => never<boolean>() }],
  ])(
    'a store whose %s does not answer within 2 s: 500 store_error at 2 s, whatever handlerTimeout',
    async (_method, store) => {
      vi.useFakeTimers();
      try {
        const { r } = receiver({ handlerTimeout: Number.POSITIVE_INFINITY, store });
        const errors: unknown[] = [];
        r.on('store_error', ({ error }) => errors.push(error));
        let settled = false;
        const answer = r.handle(delivery()).finally(() => (settled = true));
        await vi.advanceTimersByTimeAsync(1_999);
        expect(settled).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        expect(await answer).toMatchObject({ status: 500, reason: 'store_error' });
        expect(errors).toHaveLength(1);
        expect(errors[0]).toBeInstanceOf(TelephonyError);
        expect((errors[0] as Error).message).toBe('no store answer within 2 s');
        expect(vi.getTimerCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('observability listeners that throw change nothing: handle() still answers', async () => {
    const { r } = receiver();
    for (const name of ['verification_failed', 'duplicate', 'handler_error'] as const)
      r.on(name, () => {
        throw new Error(`metrics down (${name})`);
      });
    await expect(r.handle({ body: body(), headers: {} })).resolves.toMatchObject({ status: 400 });
    expect((await r.handle(delivery())).status).toBe(200);
    expect(await r.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    r.on('call.incoming', () => {
      throw new Error('handler');
    });
    await expect(r.handle(delivery({ ...JSON.parse(body()), id: 'evt_2' }))).resolves.toMatchObject({
      status: 500,
      reason: 'handler_error',
    });
  });

  it('a signed event whose type is a listener name without a dot reaches only the catch-all', async () => {
    const { r, seen } = receiver();
    const any: string[] = [];
    r.on('*', (event) => {
      any.push(event.type);
    });
    for (const type of ['*', 'handler_error'])
      await r.handle(delivery({ id: `evt_${type}`, type, created_at: '2025-11-13T02:13:20Z', data: {} }));
    expect(any).toEqual(['*', 'handler_error']);
    expect(seen).toEqual([]);
  });

  it('passes the store a whole number of seconds (Redis EX refuses 1.5)', async () => {
    const ttls: number[] = [];
    const { r } = receiver({
      dedupTtl: 1.5,
      store: { has: () => false, add: (_id, ttl) => void ttls.push(ttl) },
    });
    await r.handle(delivery());
    expect(ttls).toEqual([2]);
  });

  it('refuses settings that would break every delivery', () => {
    for (const option of ['dedupTtl', 'handlerTimeout', 'maxBodyBytes'] as const)
      for (const value of [0, -1, Number.NaN, ...(option === 'dedupTtl' ? [Number.POSITIVE_INFINITY] : [])])
        expect(() => new WebhookReceiver({ secret: SECRET, [option]: value })).toThrow(
          `${option} must be a positive number`,
        );
  });

  it('with a claiming store shared by two instances, a re-delivery to the second while the first runs answers 409 in_progress, then 200 duplicate', async () => {
    const keys = new Map<string, string>();
    const leases: number[] = [];
    const shared = {
      has: async (id: string) => keys.get(id) === 'done',
      add: async (id: string) => void keys.set(id, 'done'),
      claim: async (id: string, lease: number) => {
        leases.push(lease);
        if (keys.has(id)) return false;
        keys.set(id, 'processing');
        return true;
      },
      release: async (id: string) => void keys.delete(id),
    };
    let runs = 0;
    let finish = () => {};
    const a = receiver({ store: shared, handlerTimeout: 20 }).r;
    const b = receiver({ store: shared, handlerTimeout: 20 }).r;
    for (const r of [a, b])
      r.on('call.incoming', () => {
        runs++;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      });
    const first = a.handle(delivery());
    await vi.waitFor(() => expect(runs).toBe(1));
    expect(await b.handle(delivery())).toMatchObject({ status: 409, reason: 'in_progress' });
    finish();
    expect((await first).status).toBe(200);
    expect(await b.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(runs).toBe(1);
    expect(leases[0]).toBe(20);
  });

  it('a claim is released when a handler or add() fails, so the re-delivery runs on any instance', async () => {
    const keys = new Map<string, string>();
    let addFails = true;
    const shared = {
      has: (id: string) => keys.get(id) === 'done',
      add: (id: string) => {
        if (addFails) throw new Error('redis down');
        keys.set(id, 'done');
      },
      claim: (id: string) => !keys.has(id) && Boolean(keys.set(id, 'processing')),
      release: (id: string) => void keys.delete(id),
    };
    let handlerFails = true;
    const a = receiver({ store: shared }).r;
    const b = receiver({ store: shared }).r;
    for (const r of [a, b])
      r.on('call.incoming', () => {
        if (handlerFails) throw new Error('db down');
      });
    expect(await a.handle(delivery())).toMatchObject({ status: 500, reason: 'handler_error' });
    handlerFails = false;
    expect(await b.handle(delivery())).toMatchObject({ status: 500, reason: 'store_error' });
    addFails = false;
    expect(await a.handle(delivery())).toMatchObject({ status: 200 });
    expect(keys.get('evt_1')).toBe('done');
  });

  it('a once() handler runs for one event even when two arrive together, and may re-arm itself', async () => {
    const { r } = receiver();
    const seen: string[] = [];
    let release = () => {};
    r.once('call.incoming', () => {
      seen.push('once');
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    let arrivals = 0;
    r.on('call.incoming', () => {
      arrivals++;
    });
    const first = r.handle(delivery());
    const second = r.handle(delivery({ ...JSON.parse(body()), id: 'evt_2' }));
    await vi.waitFor(() => expect(arrivals).toBe(2));
    release();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    expect(seen).toEqual(['once']);

    const ended = (id: string) =>
      delivery({ id, type: 'call.ended', created_at: '2025-11-13T02:13:20Z', data: {} });
    const next = (event: WebhookEvent) => {
      seen.push(event.id);
      r.once('call.ended', next);
    };
    r.once('call.ended', next);
    await r.handle(ended('e1'));
    await r.handle(ended('e2'));
    expect(seen).toEqual(['once', 'e1', 'e2']);
  });

  it('an async observability listener that rejects is ignored (no unhandled rejection)', async () => {
    const { r } = receiver();
    r.on('verification_failed', async () => {
      throw new Error('metrics backend down');
    });
    r.on('duplicate', () => Promise.reject(new Error('metrics backend down')));
    expect(await r.handle({ body: body(), headers: {} })).toMatchObject({ status: 400 });
    await r.handle(delivery());
    expect(await r.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('after handlerTimeout answered, a late failure does not report again, and releases its own claim', async () => {
    vi.useFakeTimers();
    try {
      const released: unknown[] = [];
      const store = {
        has: () => false,
        add: () => {},
        claim: () => true,
        release: (id: string, token?: string) => void released.push([id, token]),
      };
      const { r, seen } = receiver({ store, handlerTimeout: 1 });
      let fail: (error: Error) => void = () => {};
      r.on(
        'call.incoming',
        () =>
          new Promise((_, reject) => {
            fail = reject;
          }),
      );
      const answer = r.handle(delivery());
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await answer).status).toBe(500);
      fail(new Error('late'));
      await vi.advanceTimersByTimeAsync(1);
      expect(seen.map(({ name }) => name)).toEqual(['handler_error']);
      // Issue 18: the release is owner-checked (its token), so it no longer waits for the lease to lapse.
      expect(released).toEqual([['evt_1', expect.stringMatching(/^[\w-]{16,}$/)]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses an async user store (e.g. Redis) with the configured ttl', async () => {
    const calls: unknown[] = [];
    const ids = new Set<string>();
    const store = {
      has: async (id: string) => {
        calls.push(['has', id]);
        return ids.has(id);
      },
      add: async (id: string, ttl: number) => {
        calls.push(['add', id, ttl]);
        ids.add(id);
      },
    };
    const { r } = receiver({ store, dedupTtl: 60 });
    await r.handle(delivery());
    await r.handle(delivery());
    expect(calls).toEqual([
      ['has', 'evt_1'],
      ['add', 'evt_1', 60],
      ['has', 'evt_1'],
    ]);
  });

  it('a store whose has() fails answers 500 store_error without running handlers; the re-delivery runs them', async () => {
    let up = false;
    const ids = new Set<string>();
    const store = {
      has: async (id: string) => {
        if (!up) throw new Error('redis down');
        return ids.has(id);
      },
      add: (id: string) => {
        ids.add(id);
      },
    };
    const { r, seen } = receiver({ store });
    let ran = 0;
    r.on('*', () => {
      ran++;
    });
    const failed = await r.handle(delivery());
    expect([failed.status, failed.reason, ran]).toEqual([500, 'store_error', 0]);
    expect(seen).toEqual([
      { name: 'store_error', info: { id: 'evt_1', type: 'call.incoming', error: new Error('redis down') } },
    ]);
    up = true;
    expect((await r.handle(delivery())).status).toBe(200);
    expect([ran, ids.has('evt_1')]).toEqual([1, true]);
  });

  it('a store whose add() fails answers 500 after the handlers ran, so the event is re-delivered, not lost', async () => {
    let fail = true;
    const ids = new Set<string>();
    const store = {
      has: (id: string) => ids.has(id),
      add: async (id: string) => {
        if (fail) throw new Error('redis down');
        ids.add(id);
      },
    };
    const { r, seen } = receiver({ store });
    let ran = 0;
    r.on('call.incoming', () => {
      ran++;
    });
    expect(await r.handle(delivery())).toMatchObject({ status: 500, reason: 'store_error' });
    expect(seen.map((s) => s.name)).toEqual(['store_error']);
    fail = false;
    expect(await r.handle(delivery())).toMatchObject({ status: 200 });
    expect(await r.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(ran).toBe(2);
  });

  it.each([
    [
      'no secret (an unset environment variable)',
      { secret: undefined as unknown as string },
      /secret is required/,
    ],
    ['an empty secret list', { secret: [] }, /secret is required/],
    ['a zero tolerance', { tolerance: 0 }, /tolerance/],
    ['a negative dedupTtl', { dedupTtl: -1 }, /dedupTtl/],
    ['a zero dedupTtl (would switch de-duplication off)', { dedupTtl: 0 }, /dedupTtl/],
    ['a NaN dedupTtl', { dedupTtl: Number.NaN }, /dedupTtl/],
  ])('refuses %s at construction, with a TelephonyError', (_, options, message) => {
    expect(() => new WebhookReceiver({ secret: SECRET, ...options })).toThrow(TelephonyError);
    expect(() => new WebhookReceiver({ secret: SECRET, ...options })).toThrow(message);
  });

  it('handler arguments are typed by the event type; the catch-all gets every event', () => {
    const { r } = receiver();
    r.on('call.incoming', (event) => expectTypeOf(event).toEqualTypeOf<CallIncomingEvent>());
    r.on('call.ended', (event) => expectTypeOf(event.data).toEqualTypeOf<CallEventData>());
    r.on('*', (event) => expectTypeOf(event).toEqualTypeOf<AnyReceivedWebhookEvent>());
  });

  it('takes the first value of a repeated header given as an array', async () => {
    const { r } = receiver();
    const d = delivery();
    const value = d.headers['Service-Signature'] as string;
    expect((await r.handle({ body: d.body, headers: { 'service-signature': [value, 'x'] } })).status).toBe(
      200,
    );
  });

  it('the default store forgets a processed id after dedupTtl seconds, and the event runs again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    try {
      const { r } = receiver({ dedupTtl: 60 });
      let ran = 0;
      r.on('*', () => {
        ran++;
      });
      expect((await r.handle(delivery())).status).toBe(200);
      vi.setSystemTime(59_999);
      expect(await r.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
      vi.setSystemTime(60_000);
      expect(await r.handle(delivery())).toEqual(expect.not.objectContaining({ reason: 'duplicate' }));
      expect(ran).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a parsed body is a programming error and surfaces', async () => {
    const { r } = receiver();
    await expect(r.handle({ body: {} as never, headers: {} })).rejects.toThrow(/raw request body/);
  });

  it('observability event names never contain a dot (no clash with event types)', () => {
    const names: (keyof WebhookReceiverEvents)[] = ['verification_failed', 'duplicate', 'handler_error'];
    for (const name of names) expect(name).not.toContain('.');
  });
});

describe('MemoryDedupStore', () => {
  it('forgets ids after their ttl on the injected clock', () => {
    let now = 0;
    const store = new MemoryDedupStore({ now: () => now });
    store.add('a', 10);
    now = 9_999;
    expect(store.has('a')).toBe(true);
    now = 10_000;
    expect(store.has('a')).toBe(false);
  });

  it('keeps every id for its ttl however many come (a 100 000-event backlog), not a count', () => {
    const store = new MemoryDedupStore({ now: () => 0 });
    for (let i = 0; i < 100_000; i++) store.add(`evt_${i}`, 60);
    expect([store.has('evt_0'), store.has('evt_50000'), store.has('evt_99999')]).toEqual([true, true, true]);
  });

  it('forgets the oldest ids past maxBytes (each counted as its length + 100 B), with one warning', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      // evt_0 … evt_9: 105 B each; 1 000 B holds nine of them.
      const store = new MemoryDedupStore({ maxBytes: 1_000, now: () => 0 });
      for (let i = 0; i < 10; i++) store.add(`evt_${i}`, 60);
      expect([store.has('evt_0'), store.has('evt_1'), store.has('evt_9')]).toEqual([false, true, true]);
      store.add('evt_10', 60);
      expect(store.has('evt_1')).toBe(false);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/Raise maxBytes.*redisDedupStore/);
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses a maxBytes that is not a positive number', () => {
    for (const maxBytes of [0, -1, Number.NaN])
      expect(() => new MemoryDedupStore({ maxBytes })).toThrow('maxBytes must be a positive number of bytes');
  });

  it('keeps at most maxSize ids, forgetting the oldest', () => {
    const store = new MemoryDedupStore({ maxSize: 2, now: () => 0 });
    store.add('a', 10);
    store.add('b', 10);
    store.add('c', 10);
    expect([store.has('a'), store.has('b'), store.has('c')]).toEqual([false, true, true]);
  });
});
