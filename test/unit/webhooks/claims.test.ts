import { type DedupStore, MemoryDedupStore, WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { delivery, NOW, SECRET } from './helpers.js';

// Issue 18, item 12 (API.md "Webhooks", last paragraph): a claim on an event id belongs to the
// delivery that made it, lasts as long as its handlers run (at least handlerTimeout, whatever
// dedupTtl is), and neither its release nor its expiry frees another delivery's claim; while it is
// held, another delivery of the event answers 409 in_progress and runs nothing.

type Options = Partial<ConstructorParameters<typeof WebhookReceiver>[0]>;
const receiver = (options: Options = {}) => new WebhookReceiver({ secret: SECRET, now: NOW, ...options });

/** A handler that runs until `finish(id)` (or `fail(id)`), counting runs and the most running at once. */
function slowHandler() {
  const runs: string[] = [];
  const open = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  let running = 0;
  let mostAtOnce = 0;
  const handler = (event: { id: string }) => {
    runs.push(event.id);
    mostAtOnce = Math.max(mostAtOnce, ++running);
    return new Promise<void>((resolve, reject) => {
      open.set(event.id, { resolve, reject });
    }).finally(() => void running--);
  };
  return {
    handler,
    runs,
    mostAtOnce: () => mostAtOnce,
    finish: (id = 'evt_1') => open.get(id)?.resolve(),
    fail: (id = 'evt_1') => open.get(id)?.reject(new Error('db down')),
  };
}

/** A receiver whose `call.incoming` handler is `slow`'s (a new slow handler by default). */
function slowReceiver(options: Options = {}, slow = slowHandler()) {
  const r = receiver(options);
  r.on('call.incoming', slow.handler);
  return { r, slow };
}

/** Two instances (sharing `options.store`) running one slow handler. */
function twoSlowReceivers(options: Options) {
  const slow = slowHandler();
  const [a, b] = [slowReceiver(options, slow).r, slowReceiver(options, slow).r];
  return { a, b, slow };
}

/** Records every store call; claims follow the token rules of API.md, in a Map. */
function recordingStore() {
  const calls: unknown[][] = [];
  const claims = new Map<string, string | undefined>();
  const done = new Set<string>();
  const store: Required<DedupStore> = {
    has: (id) => done.has(id),
    add: (id, ttl, token) => {
      calls.push(['add', id, ttl, token]);
      done.add(id);
    },
    claim: (id, lease, token) => {
      calls.push(['claim', id, lease, token]);
      if (claims.has(id) && claims.get(id) !== token) return false;
      claims.set(id, token);
      return true;
    },
    release: (id, token) => {
      calls.push(['release', id, token]);
      if (claims.get(id) === token) claims.delete(id);
    },
  };
  return { store, calls, claims, done };
}

describe('issue 18: a claim belongs to its delivery', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('leases at least handlerTimeout whatever dedupTtl is, under a random token of its own', async () => {
    const { store, calls } = recordingStore();
    const r = receiver({ store, dedupTtl: 1, handlerTimeout: 20, maxEventAge: 1 });
    r.on('*', () => {});
    expect((await r.handle(delivery('evt_a'))).status).toBe(200);
    expect((await r.handle(delivery('evt_b'))).status).toBe(200);
    const [claimA, addA, claimB] = calls as [unknown[], unknown[], unknown[]];
    expect(claimA.slice(0, 3)).toEqual(['claim', 'evt_a', 20]);
    expect(addA.slice(0, 3)).toEqual(['add', 'evt_a', 1]);
    expect(claimA[3]).toMatch(/^[\w-]{16,}$/);
    expect(addA[3]).toBe(claimA[3]);
    expect(claimB[3]).not.toBe(claimA[3]);
  });

  it('an hour when handlerTimeout is Infinity; a fractional one rounds up (whole seconds, as EX takes)', async () => {
    for (const [handlerTimeout, lease] of [
      [Number.POSITIVE_INFINITY, 3600],
      [0.2, 1],
    ] as const) {
      const { store, calls } = recordingStore();
      await receiver({ store, handlerTimeout }).handle(delivery());
      expect(calls[0]?.slice(0, 3)).toEqual(['claim', 'evt_1', lease]);
    }
  });

  it('is renewed every third of its lease, with its token, while the handlers run, then no more', async () => {
    const { store, calls } = recordingStore();
    const { r, slow } = slowReceiver({ store, handlerTimeout: 3 });
    const answer = r.handle(delivery());
    await vi.advanceTimersByTimeAsync(5_000);
    // handlerTimeout answered at 3 s; the handler still runs, so the claim is still renewed.
    expect(await answer).toMatchObject({ status: 500, reason: 'handler_error' });
    const claims = calls.filter(([name]) => name === 'claim');
    expect(claims).toHaveLength(6); // the claim, then at 1, 2, 3, 4 and 5 s
    const token = claims[0]?.[3];
    expect(claims).toEqual(claims.map(() => ['claim', 'evt_1', 3, token]));
    slow.finish();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.slice(6)).toEqual([['add', 'evt_1', 86_400, token]]);
  });

  it('after handlerTimeout answered, a re-delivery while the handler still runs answers 409 in_progress and runs nothing', async () => {
    const { r, slow } = slowReceiver({ handlerTimeout: 5 });
    const first = r.handle(delivery());
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await first).toMatchObject({ status: 500, reason: 'handler_error' });
    // Long past the lease (5 s): the running handler's claim is renewed, never lapses.
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await r.handle(delivery())).toMatchObject({ status: 409, reason: 'in_progress' });
    }
    slow.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(await r.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(slow.runs).toEqual(['evt_1']);
  });

  it('two instances sharing a MemoryDedupStore: a handler outliving dedupTtl and its lease still runs alone', async () => {
    const { a, b, slow } = twoSlowReceivers({
      store: new MemoryDedupStore(),
      handlerTimeout: 1,
      dedupTtl: 2,
    });
    const first = a.handle(delivery());
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(700);
      answers.push((await (i % 2 ? a : b).handle(delivery())).status);
    }
    expect((await first).status).toBe(500);
    expect(new Set(answers)).toEqual(new Set([409]));
    slow.fail();
    await vi.advanceTimersByTimeAsync(0);
    // The failure released the claim: the re-delivery runs, here on the other instance.
    const retried = b.handle(delivery());
    await vi.advanceTimersByTimeAsync(0);
    expect(slow.runs).toEqual(['evt_1', 'evt_1']);
    expect(await a.handle(delivery())).toMatchObject({ status: 409, reason: 'in_progress' });
    slow.finish();
    expect((await retried).status).toBe(200);
    expect(await a.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(slow.mostAtOnce()).toBe(1);
  });

  it('answers 409 through fetchHandler too, so the service re-delivers later', async () => {
    const { a, b, slow } = twoSlowReceivers({ store: new MemoryDedupStore() });
    const first = a.handle(delivery());
    await vi.advanceTimersByTimeAsync(0);
    const d = delivery();
    const response = await b.fetchHandler(
      new Request('https://example.test/hooks', { method: 'POST', headers: d.headers, body: d.body }),
    );
    expect(response.status).toBe(409);
    slow.finish();
    expect((await first).status).toBe(200);
    expect(slow.runs).toEqual(['evt_1']);
  });

  it('a late failure, after handlerTimeout answered, releases its own claim (only its own) so the re-delivery runs', async () => {
    const { store, calls, claims } = recordingStore();
    const { r, slow } = slowReceiver({ store, handlerTimeout: 1 });
    const seen: string[] = [];
    r.on('handler_error', () => void seen.push('handler_error'));
    expect(
      await (async () => {
        const answer = r.handle(delivery());
        await vi.advanceTimersByTimeAsync(1_000);
        return answer;
      })(),
    ).toMatchObject({ status: 500 });
    const token = calls[0]?.[3];
    slow.fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.filter(([name]) => name === 'release')).toEqual([['release', 'evt_1', token]]);
    expect(claims.has('evt_1')).toBe(false);
    expect(seen).toEqual(['handler_error']); // reported once, at the timeout
    r.off('call.incoming');
    r.on('call.incoming', () => {});
    expect((await r.handle(delivery())).status).toBe(200);
  });
});

describe('issue 18: MemoryDedupStore claims', () => {
  it('a claim is its token’s: another cannot take, renew or release it; its holder renews it', () => {
    let now = 0;
    const store = new MemoryDedupStore({ now: () => now });
    expect(store.claim('e', 10, 'a')).toBe(true);
    expect(store.claim('e', 10, 'b')).toBe(false);
    now = 9_000;
    expect(store.claim('e', 10, 'a')).toBe(true); // renewed: now held until 19 s
    store.release('e', 'b');
    now = 18_999;
    expect(store.claim('e', 10, 'b')).toBe(false);
    store.release('e', 'a');
    expect(store.claim('e', 10, 'b')).toBe(true);
  });

  it('expiry frees a claim for another token, and the lapsed holder can then neither release nor renew it', () => {
    let now = 0;
    const store = new MemoryDedupStore({ now: () => now });
    expect(store.claim('e', 1, 'a')).toBe(true);
    now = 1_000;
    expect(store.claim('e', 1, 'b')).toBe(true);
    store.release('e', 'a');
    expect(store.claim('e', 1, 'a')).toBe(false);
    expect(store.claim('e', 1, 'c')).toBe(false);
  });

  it('add ends its own claim only; a remembered id cannot be claimed', () => {
    const store = new MemoryDedupStore({ now: () => 0 });
    expect(store.claim('e', 10, 'a')).toBe(true);
    store.add('other', 60, 'a');
    expect(store.claim('e', 10, 'b')).toBe(false);
    store.add('e', 60, 'a');
    expect(store.has('e')).toBe(true);
    expect(store.claim('e', 10, 'b')).toBe(false);
  });
});

describe('issue 18: a store written before claim tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** SET NX-like claim and an unconditional release, as docs/webhooks.md showed: tokens are not its parameters. */
  function oldStore() {
    const keys = new Map<string, string>();
    const store = {
      has: async (id: string) => keys.get(id) === 'done',
      add: async (id: string) => void keys.set(id, 'done'),
      claim: async (id: string) => !keys.has(id) && Boolean(keys.set(id, 'processing')),
      release: async (id: string) => void keys.delete(id),
    };
    return { store, keys };
  }

  it('still de-duplicates, answers 409 while another instance runs the event, and releases after a quick failure', async () => {
    const { store, keys } = oldStore();
    const { a, b, slow } = twoSlowReceivers({ store });
    const first = a.handle(delivery());
    await vi.waitFor(() => expect(slow.runs).toHaveLength(1));
    expect(await b.handle(delivery())).toMatchObject({ status: 409, reason: 'in_progress' });
    slow.fail();
    expect((await first).status).toBe(500);
    expect(keys.has('evt_1')).toBe(false);
    const second = b.handle(delivery());
    await vi.waitFor(() => expect(slow.runs).toHaveLength(2));
    slow.finish();
    expect((await second).status).toBe(200);
    expect(await a.handle(delivery())).toMatchObject({ status: 200, reason: 'duplicate' });
    expect(slow.mostAtOnce()).toBe(1);
  });

  it('once a renewal says the claim is not its own (SET NX answers no), a failure leaves the claim to lapse instead of deleting what may be another’s', async () => {
    vi.useFakeTimers();
    const { store, keys } = oldStore();
    const { r, slow } = slowReceiver({ store, handlerTimeout: 3 });
    const answer = r.handle(delivery());
    await vi.advanceTimersByTimeAsync(1_000);
    keys.set('evt_1', 'another instance');
    slow.fail();
    expect((await answer).status).toBe(500);
    expect(keys.get('evt_1')).toBe('another instance');
  });
});
