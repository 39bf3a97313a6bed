import { delay, HttpResponse, http } from 'msw';
import { APITimeoutError, type TelephonyError } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryState, type SharedState } from '../../../src/core/pacing/shared-state.js';
import { BASE, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

// The rate-budget reservation is a wait of the call like any other: a shared store that answers late
// (or not at all) must not hold a call past its totalTimeout, and a deadline that passed while the
// store answered must not let the attempt go out.

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as TelephonyError,
  );

/** A shared store whose reservations take `answerMs` of the (faked) wall clock. */
function slowStore(answerMs: number): SharedState {
  const memory = new MemoryState();
  return Object.assign(Object.create(memory) as SharedState, {
    reserve: async (...args: Parameters<SharedState['reserve']>) => {
      await delay(answerMs);
      return memory.reserve(...args);
    },
  });
}

describe('totalTimeout over the rate-budget reservation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['never answers (within the test)', 2 ** 31 - 1],
    ['answers after the deadline', 700],
  ])('a shared store that %s: APITimeoutError at the deadline, nothing sent', async (_name, answerMs) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let hits = 0;
    server.use(
      http.get(`${BASE}/v2/x`, () => {
        hits++;
        return HttpResponse.json({});
      }),
    );
    const clock = { now: () => Date.now(), sleep: () => Promise.resolve() };
    const client = testClient({
      clock,
      accessToken: 'tok',
      rateLimit: 'pro',
      account: 'acct_pace',
      sharedState: slowStore(answerMs),
    });
    const pending = failure(
      client.request({ method: 'GET', path: '/v2/x' }, { timeout: 60_000, totalTimeout: 500 }),
    );
    // Past the deadline, well before the store's own bound (the 60 s timeout): the call is over.
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await pending;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error?.message).toBe('GET /v2/x passed its totalTimeout of 500 ms');
    expect(error?.outcome).toBe('not_sent');
    expect(hits).toBe(0);
  });
});
