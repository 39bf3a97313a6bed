import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import { BASE, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

// A token is never sent past the life its answer gave it: a 1 s `expires_in` is used for at most
// 1 s, counted from the token request's start, and a short life is not stretched. Storms are kept
// away by the single flight and a 1 s gap between token requests (token-cache.ts).

/**
 * A clock whose time moves only when the test moves it: a sleep resolves once the test has advanced
 * past its end. (The shared fake clock moves time forward for every sleep, which would age a token
 * that another call is about to send.)
 */
function steppedClock(start = Date.UTC(2025, 0, 15, 9, 0, 0)) {
  let now = start;
  const sleepers: Array<{ at: number; wake: () => void }> = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
  };
  return {
    clock,
    /** Moves time by `ms` and wakes the sleeps that ended. */
    advance(ms: number): void {
      now += ms;
      for (const sleeper of sleepers.filter(({ at }) => at <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
    },
  };
}

describe('a token is not used past its stated life', () => {
  it('a burst of 1 000 calls over a 1 s token sends no expired token; token requests are at least 1 s apart', async () => {
    const { clock, advance } = steppedClock();
    /** The service's view: when each token it issued expires. */
    const expiresAt = new Map<string, number>();
    const tokenRequests: number[] = [];
    server.use(
      http.post(`${BASE}/v2/oauth/token`, () => {
        const token = `at_${expiresAt.size + 1}`;
        tokenRequests.push(clock.now());
        expiresAt.set(token, clock.now() + 1000);
        return HttpResponse.json({ access_token: token, expires_in: 1 });
      }),
      http.get(`${BASE}/v2/x`, () => HttpResponse.json({})),
    );
    // Checked when the request is handed to fetch: the moment the token is sent.
    const sent: Array<{ at: number; token: string }> = [];
    const client = testClient({
      clock,
      // ky hands fetch a Request.
      fetch: ((input: Request) => {
        const token = input.headers.get('authorization')?.replace('Bearer ', '') ?? '';
        if (!input.url.endsWith('/oauth/token')) sent.push({ at: clock.now(), token });
        return globalThis.fetch(input);
      }) as typeof fetch,
    });
    /**
     * Lets the calls run until none is handed to fetch any more (the rest wait for a token or for
     * time), so time moves only between a call's bearer and its send if the SDK waits there.
     */
    const idle = async () => {
      for (let quiet = 0, seen = -1; quiet < 20; quiet = sent.length === seen ? quiet + 1 : 0) {
        seen = sent.length;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const get = () => client.request({ method: 'GET', path: '/v2/x' });
    // The first call loads the client-credentials code (import()) and takes the first token.
    await get();
    const calls: Array<Promise<unknown>> = [];
    // Then 1 000 calls over 3 s of the client's clock: 20 at once every 60 ms.
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 20; i++) calls.push(get());
      await idle();
      advance(60);
    }
    advance(1000);
    await Promise.all(calls);

    expect(sent).toHaveLength(1001);
    const expired = sent.filter(({ at, token }) => !(at < (expiresAt.get(token) ?? 0)));
    expect(expired).toEqual([]);
    // Renewed as the tokens aged (3 s of calls over 1 s tokens), never twice within a second.
    expect(tokenRequests.length).toBeGreaterThanOrEqual(3);
    const gaps = tokenRequests.slice(1).map((at, i) => at - (tokenRequests[i] as number));
    expect(gaps.filter((gap) => gap < 1000)).toEqual([]);
  });
});
