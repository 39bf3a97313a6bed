import type { Reservation, SharedState, SharedStateErrorEvent } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientEmitter } from '../../../src/core/events.js';
import { FailSafeState } from '../../../src/core/pacing/fail-safe-state.js';
import { MemoryState } from '../../../src/core/pacing/shared-state.js';
import { fakeClock } from '../../helpers/clock.js';

// The fail-safe state bounds every store call to its bound (the call's timeout; 1 s here) with one timer for all pending calls (not one each).
// Fake timers move setTimeout and performance.now together; its back-off runs on the
// client clock (fakeClock), which these tests do not move.

const budget = { limit: 10, windowMs: 61_000 };

/** A store whose `reserve` answers only when the test says so. */
function heldStore() {
  const held: Array<{ resolve: (r: Reservation) => void; reject: (e: Error) => void }> = [];
  const local = new MemoryState();
  const store = new Proxy(local, {
    get: (target, name) =>
      name === 'reserve'
        ? () => new Promise<Reservation>((resolve, reject) => held.push({ resolve, reject }))
        : Reflect.get(target, name),
  }) as SharedState;
  return { store, held };
}

function failSafeOver(store: SharedState) {
  const events = new ClientEmitter();
  const errors: SharedStateErrorEvent[] = [];
  events.on('shared_state_error', (event) => errors.push(event));
  const failSafe = new FailSafeState(store, fakeClock(), events, 1_000);
  const reserve = () => {
    const outcome: { value?: Reservation } = {};
    void failSafe
      .run('reserve', (state) => state.reserve('acct:v2', budget, 0))
      .then((value) => {
        outcome.value = value;
      });
    return outcome;
  };
  return { errors, reserve };
}

/** A fail-safe state over a held store, on fake setTimeout and performance.now. */
function onFakeTimers() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  const { store, held } = heldStore();
  return { held, ...failSafeOver(store) };
}

describe('FailSafeState: one deadline timer for every pending store call', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('three hung calls started 300 ms apart: one timer; each falls back to local state at its own 1 s', async () => {
    const { errors, reserve } = onFakeTimers();
    const first = reserve();
    await vi.advanceTimersByTimeAsync(300);
    const second = reserve();
    await vi.advanceTimersByTimeAsync(300);
    const third = reserve();
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(399); // t = 999 ms
    expect([first.value, second.value, third.value]).toEqual([undefined, undefined, undefined]);
    await vi.advanceTimersByTimeAsync(1); // t = 1000 ms: the first one only
    expect(first.value).toEqual({ waitMs: 0, reason: undefined });
    expect([second.value, third.value]).toEqual([undefined, undefined]);
    expect(errors).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(300); // t = 1300 ms
    expect(second.value).toEqual({ waitMs: 0, reason: undefined });
    expect(third.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(300); // t = 1600 ms
    expect(third.value).toEqual({ waitMs: 0, reason: undefined });

    // One outage, one report: the other two calls failed with it.
    expect(errors.map((event) => [event.operation, event.error.message])).toEqual([
      ['reserve', 'shared state did not answer within 1000 ms'],
    ]);
    // Nothing pending: the timer is not re-armed.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('calls that answer in time: no error, and the timer is not re-armed once nothing is pending', async () => {
    const { held, errors, reserve } = onFakeTimers();
    const answers = [reserve(), reserve()];
    await vi.advanceTimersByTimeAsync(500);
    for (const call of held) call.resolve({ waitMs: 7, reason: 'pacing' });
    await vi.advanceTimersByTimeAsync(0);
    expect(answers.map((answer) => answer.value)).toEqual([
      { waitMs: 7, reason: 'pacing' },
      { waitMs: 7, reason: 'pacing' },
    ]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(errors).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an answer after the deadline is dropped: the local answer stands, a late failure is not reported again', async () => {
    const { held, errors, reserve } = onFakeTimers();
    const late = [reserve(), reserve()];
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toHaveLength(1);
    held[0]!.resolve({ waitMs: 99, reason: 'pacing' });
    held[1]!.reject(new Error('connection lost'));
    await vi.advanceTimersByTimeAsync(0);
    expect(late.map((answer) => answer.value)).toEqual([
      { waitMs: 0, reason: undefined },
      { waitMs: 0, reason: undefined },
    ]);
    expect(errors).toHaveLength(1);
  });

  it("the shared timer does not keep the process alive (unref'd)", async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const { store, held } = heldStore();
    const { reserve } = failSafeOver(store);
    const answer = reserve();
    const timers = setTimeoutSpy.mock.results.map((result) => result.value as NodeJS.Timeout);
    expect(timers).toHaveLength(1);
    expect(timers[0]!.hasRef()).toBe(false);
    held[0]!.resolve({ waitMs: 0, reason: undefined });
    await vi.waitFor(() => expect(answer.value).toEqual({ waitMs: 0, reason: undefined }));
  });
});

describe("FailSafeState: 'shared_state_error' once per outage, with the store's message", () => {
  /** A store whose `reserve` rejects with the next error given, or answers for `undefined` or none. */
  function failingStore(failures: unknown[]) {
    return new Proxy(new MemoryState(), {
      get: (target, name) =>
        name === 'reserve'
          ? async () => {
              const failure = failures.shift();
              if (failure !== undefined) throw failure;
              return { waitMs: 0, reason: undefined };
            }
          : Reflect.get(target, name),
    }) as SharedState;
  }

  function over(failures: unknown[]) {
    const events = new ClientEmitter();
    const errors: string[] = [];
    events.on('shared_state_error', (event) => errors.push(event.error.message));
    const clock = fakeClock();
    const failSafe = new FailSafeState(failingStore(failures), clock, events, 1_000);
    const reserve = () => failSafe.run('reserve', (state) => state.reserve('acct:v2', budget, clock.now()));
    return { errors, clock, reserve };
  }

  it('calls in flight that all fail with the store: one event; after an answer, the next failure is a new outage', async () => {
    const { errors, clock, reserve } = over([
      new Error('Socket closed unexpectedly'),
      new Error('read ECONNRESET'),
      undefined,
      new Error('Socket closed unexpectedly'),
    ]);
    await Promise.all([reserve(), reserve()]);
    expect(errors).toEqual(['Socket closed unexpectedly']);
    clock.advance(5_000);
    await reserve(); // the store answers: the outage is over
    await reserve(); // a new one
    expect(errors).toEqual(['Socket closed unexpectedly', 'Socket closed unexpectedly']);
  });

  it("a driver error with no message: the event says what failed and names the error; an AggregateError gives its errors' messages", async () => {
    class ClientGone extends Error {
      override name = 'ClientGone';
    }
    const { errors, clock, reserve } = over([
      new ClientGone(''),
      new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:6390')], ''),
    ]);
    await reserve();
    clock.advance(5_000);
    await reserve().then(() => {});
    // The second failure follows no answer: still the first outage.
    expect(errors).toEqual([
      "shared state reserve failed: the store's client rejected with ClientGone and no message",
    ]);
    clock.advance(5_000);
    const next = over([new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:6390')], '')]);
    await next.reserve();
    expect(next.errors).toEqual(['connect ECONNREFUSED 127.0.0.1:6390']);
  });
});
