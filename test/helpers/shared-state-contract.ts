import { expect, it } from 'vitest';
import type {
  RateBudget,
  Reservation,
  SharedState,
  SharedToken,
} from '../../src/core/pacing/shared-state.js';

/**
 * The behaviour every `SharedState` owes the client (src/core/shared-state.ts), run against
 * `MemoryState` and against `redisState` over each Redis client. Call it inside a `describe`.
 *
 * Times are real (`Date.now()`): a store may pace on its own clock (Redis's), so waits are checked
 * against bounds widened by the time the calls took, never against a fake clock only MemoryState reads.
 * The real waits are 200 ms token leases running out (a store's lease runs on its own clock).
 */
export interface SharedStateHandles {
  /** Two handles on one store: two connections (two processes), or the same object in memory. */
  a: SharedState;
  b: SharedState;
}

const WINDOW = 60_000;
/** Date.now() and a store's clock both floor to whole milliseconds. */
const ROUNDING = 1;

let account = 0;
/** A fresh account per test, so tests sharing a store never see each other's keys. */
const fresh = () => `acct_${++account}_${Math.random().toString(36).slice(2, 8)}`;

const token = (accessToken: string, lifetimeMs = 3_600_000): SharedToken => {
  const now = Date.now();
  return { accessToken, expiresAt: now + lifetimeMs, obtainedAt: now };
};

/** Runs `calls` in order, alternating between the handles; returns the results and how long they took. */
async function timed<T>(calls: Array<() => Promise<T>>): Promise<{ results: T[]; elapsed: number }> {
  const started = Date.now();
  const results: T[] = [];
  for (const call of calls) results.push(await call());
  return { results, elapsed: Date.now() - started + ROUNDING };
}

/** `waitMs` was decided within `elapsed` ms after a slot that is `target` ms away was placed. */
function expectWait(reservation: Reservation | undefined, target: number, elapsed: number, reason: string) {
  expect(reservation?.reason).toBe(reason);
  expect(reservation?.waitMs).toBeLessThanOrEqual(target);
  expect(reservation?.waitMs).toBeGreaterThanOrEqual(target - elapsed);
}

export function sharedStateContract(setup: () => Promise<SharedStateHandles>): void {
  it('reserve: no pause and no budget → no wait, no reason', async () => {
    const { a } = await setup();
    expect(await a.reserve(`${fresh()}:v2`, undefined, Date.now())).toMatchObject({
      waitMs: 0,
      reason: undefined,
    });
  });

  it('reserve: a burst of `limit` goes at once, then each waits a whole window after the slot `limit` places back', async () => {
    const { a, b } = await setup();
    const scope = `${fresh()}:v2`;
    const budget: RateBudget = { limit: 3, windowMs: WINDOW };
    const { results, elapsed } = await timed(
      Array.from({ length: 7 }, (_, i) => () => (i % 2 ? b : a).reserve(scope, budget, Date.now())),
    );
    for (const first of results.slice(0, 3)) expect(first).toMatchObject({ waitMs: 0, reason: undefined });
    for (const second of results.slice(3, 6)) expectWait(second, WINDOW, elapsed, 'pacing');
    expectWait(results[6], 2 * WINDOW, elapsed, 'pacing');
    expect(results[6]!.waitMs - results[3]!.waitMs).toBeGreaterThanOrEqual(WINDOW - elapsed);
  });

  it('reserve: budgets are per scope (v1 apart from v2) and per account', async () => {
    const { a } = await setup();
    const acct = fresh();
    const budget: RateBudget = { limit: 1, windowMs: WINDOW };
    expect((await a.reserve(`${acct}:v2`, budget, Date.now())).waitMs).toBe(0);
    expect((await a.reserve(`${acct}:v1`, budget, Date.now())).waitMs).toBe(0);
    expect((await a.reserve(`${fresh()}:v2`, budget, Date.now())).waitMs).toBe(0);
    expect((await a.reserve(`${acct}:v2`, budget, Date.now())).reason).toBe('pacing');
  });

  it("pause: reserve waits until it has passed, reason 'paused', on every handle; other scopes are not paused", async () => {
    const { a, b } = await setup();
    const acct = fresh();
    const { results, elapsed } = await timed<unknown>([
      () => a.pause(`${acct}:v2`, 5_000, Date.now()),
      () => b.reserve(`${acct}:v2`, undefined, Date.now()),
      () => a.reserve(`${acct}:v2`, { limit: 100, windowMs: WINDOW }, Date.now()),
    ]);
    expectWait(results[1] as Reservation, 5_000, elapsed, 'paused');
    expectWait(results[2] as Reservation, 5_000, elapsed, 'paused');
    expect(await a.reserve(`${acct}:v1`, undefined, Date.now())).toMatchObject({
      waitMs: 0,
      reason: undefined,
    });
    expect(await a.reserve(`${fresh()}:v2`, undefined, Date.now())).toMatchObject({
      waitMs: 0,
      reason: undefined,
    });
  });

  it('pause: a longer pause already set is kept, a longer one replaces a shorter one', async () => {
    const { a, b } = await setup();
    const [first, second] = [`${fresh()}:v2`, `${fresh()}:v2`];
    const { results, elapsed } = await timed<unknown>([
      () => a.pause(first, 5_000, Date.now()),
      () => b.pause(first, 1_000, Date.now()),
      () => a.pause(second, 1_000, Date.now()),
      () => b.pause(second, 5_000, Date.now()),
      () => a.reserve(first, undefined, Date.now()),
      () => b.reserve(second, undefined, Date.now()),
    ]);
    expectWait(results[4] as Reservation, 5_000, elapsed, 'paused');
    expectWait(results[5] as Reservation, 5_000, elapsed, 'paused');
  });

  it('pause with a budget: slots start at the pause end, and pacing counts from there', async () => {
    const { a, b } = await setup();
    const scope = `${fresh()}:v2`;
    const budget: RateBudget = { limit: 2, windowMs: WINDOW };
    const { results, elapsed } = await timed<unknown>([
      () => a.pause(scope, 5_000, Date.now()),
      () => a.reserve(scope, budget, Date.now()),
      () => b.reserve(scope, budget, Date.now()),
      () => a.reserve(scope, budget, Date.now()),
    ]);
    expectWait(results[1] as Reservation, 5_000, elapsed, 'paused');
    expectWait(results[2] as Reservation, 5_000, elapsed, 'paused');
    expectWait(results[3] as Reservation, 5_000 + WINDOW, elapsed, 'pacing');
  });

  it('reserve without a budget only reads the pause: it takes no slot', async () => {
    const { a, b } = await setup();
    const scope = `${fresh()}:v2`;
    for (let i = 0; i < 5; i++) await (i % 2 ? b : a).reserve(scope, undefined, Date.now());
    expect(await a.reserve(scope, { limit: 1, windowMs: WINDOW }, Date.now())).toMatchObject({
      waitMs: 0,
      reason: undefined,
    });
  });

  it('concurrency: 200 reserves at once from both handles → exactly `limit` go at once, no window holds more', async () => {
    const { a, b } = await setup();
    const scope = `${fresh()}:v2`;
    const limit = 10;
    const budget: RateBudget = { limit, windowMs: WINDOW };
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? b : a).reserve(scope, budget, Date.now())),
    );
    const elapsed = Date.now() - started + ROUNDING;
    const waits = results.map((result) => result.waitMs).sort((x, y) => x - y);
    expect(results.filter((result) => result.waitMs === 0)).toHaveLength(limit);
    expect(results.filter((result) => result.waitMs > 0).every((result) => result.reason === 'pacing')).toBe(
      true,
    );
    // Reserved times are (decision time + wait), decided within `elapsed` of each other: two slots
    // `limit` apart in time order are at least a window apart.
    for (let i = 0; i + limit < waits.length; i++) {
      expect(waits[i + limit]! - waits[i]!).toBeGreaterThanOrEqual(WINDOW - elapsed);
    }
    // And no slot is later than it needs to be: the k-th group of `limit` waits about k windows.
    waits.forEach((wait, i) => {
      expect(wait).toBeLessThanOrEqual(Math.floor(i / limit) * WINDOW);
    });
  });

  it('readToken: nothing stored → undefined; written → the same token on every handle; expired → undefined', async () => {
    const { a, b } = await setup();
    const key = `${fresh()}:token:3f2a`;
    expect(await a.readToken(key, Date.now())).toBeUndefined();
    const stored = token('at_contract_1');
    await a.writeToken(key, stored, 'holder-a');
    expect(await a.readToken(key, Date.now())).toEqual(stored);
    expect(await b.readToken(key, Date.now())).toEqual(stored);
    expect(await b.readToken(key, stored.expiresAt)).toBeUndefined();
    expect(await b.readToken(`${fresh()}:token:3f2a`, Date.now())).toBeUndefined();
  });

  it('writeToken: a newer token replaces the stored one', async () => {
    const { a, b } = await setup();
    const key = `${fresh()}:token:3f2a`;
    await a.writeToken(key, token('at_old'), 'holder-a');
    const newer = token('at_new');
    await b.writeToken(key, newer, 'holder-b');
    expect(await a.readToken(key, Date.now())).toEqual(newer);
  });

  it('lockToken: one holder at a time; the holder may take it again; unlock by another holder does nothing', async () => {
    const { a, b } = await setup();
    const key = `${fresh()}:token:3f2a`;
    expect(await a.lockToken(key, 'holder-a', 10_000, Date.now())).toBe(true);
    expect(await b.lockToken(key, 'holder-b', 10_000, Date.now())).toBe(false);
    expect(await a.lockToken(key, 'holder-a', 10_000, Date.now())).toBe(true);
    await b.unlockToken(key, 'holder-b');
    expect(await b.lockToken(key, 'holder-b', 10_000, Date.now())).toBe(false);
    await a.unlockToken(key, 'holder-a');
    expect(await b.lockToken(key, 'holder-b', 10_000, Date.now())).toBe(true);
    expect(await a.lockToken(`${fresh()}:token:3f2a`, 'holder-a', 10_000, Date.now())).toBe(true);
  });

  it('lockToken: a holder that never unlocks (died) frees the lock when its lease ends', async () => {
    const { a, b } = await setup();
    const key = `${fresh()}:token:3f2a`;
    const lease = 200;
    const started = Date.now();
    expect(await a.lockToken(key, 'holder-a', lease, Date.now())).toBe(true);
    expect(await b.lockToken(key, 'holder-b', lease, Date.now())).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, lease + 50));
    expect(await b.lockToken(key, 'holder-b', lease, Date.now())).toBe(true);
    expect(await a.lockToken(key, 'holder-a', lease, Date.now())).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("lockToken renews: the holder asking again gets a new lease; a renewal never takes another holder's lock", async () => {
    const { a, b } = await setup();
    const [renewed, lapsed] = [`${fresh()}:token:3f2a`, `${fresh()}:token:3f2a`];
    const lease = 200;
    expect(await a.lockToken(renewed, 'holder-a', lease, Date.now())).toBe(true);
    expect(await a.lockToken(lapsed, 'holder-a', lease, Date.now())).toBe(true);
    // The holder renews one of them (its token request runs on) with a lease past the wait below.
    expect(await a.lockToken(renewed, 'holder-a', 10_000, Date.now())).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, lease + 50));
    expect(await b.lockToken(renewed, 'holder-b', lease, Date.now())).toBe(false);
    expect(await b.lockToken(lapsed, 'holder-b', 10_000, Date.now())).toBe(true);
    // A late renewal of the lapsed lease (owner-checked) neither takes the lock back nor frees it.
    expect(await a.lockToken(lapsed, 'holder-a', 10_000, Date.now())).toBe(false);
    await a.unlockToken(lapsed, 'holder-a');
    expect(await a.lockToken(lapsed, 'holder-a', 10_000, Date.now())).toBe(false);
    await b.unlockToken(lapsed, 'holder-b');
    expect(await a.lockToken(lapsed, 'holder-a', 10_000, Date.now())).toBe(true);
  });

  it('writeToken frees the lock only if the writer still holds it', async () => {
    const { a, b } = await setup();
    const key = `${fresh()}:token:3f2a`;
    expect(await a.lockToken(key, 'holder-a', 10_000, Date.now())).toBe(true);
    const first = token('at_first');
    await b.writeToken(key, first, 'holder-b');
    expect(await b.readToken(key, Date.now())).toEqual(first);
    expect(await b.lockToken(key, 'holder-b', 10_000, Date.now())).toBe(false);
    const second = token('at_second');
    await a.writeToken(key, second, 'holder-a');
    expect(await b.readToken(key, Date.now())).toEqual(second);
    expect(await b.lockToken(key, 'holder-b', 10_000, Date.now())).toBe(true);
  });

  it('dropToken deletes the token only if it is still the refused one (compare and delete)', async () => {
    const { a, b } = await setup();
    const key = `${fresh()}:token:3f2a`;
    const refused = token('at_refused');
    await a.writeToken(key, refused, 'holder-a');
    // Another client already replaced it: the late 401 of the old token must not drop the new one.
    const replacement = token('at_replacement');
    await b.writeToken(key, replacement, 'holder-b');
    await a.dropToken(key, refused.accessToken);
    expect(await a.readToken(key, Date.now())).toEqual(replacement);
    await b.dropToken(key, replacement.accessToken);
    expect(await a.readToken(key, Date.now())).toBeUndefined();
    await b.dropToken(key, replacement.accessToken); // nothing stored: nothing happens
    expect(await b.readToken(key, Date.now())).toBeUndefined();
  });
}
