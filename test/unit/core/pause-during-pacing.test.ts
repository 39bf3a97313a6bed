import { HttpResponse, http } from 'msw';
import { RateLimitError, type ThrottleEvent } from 'telephony-sdk';
import { describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import { BASE, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

// API.md, Scale: any 429's Retry-After pauses every call of the client. A call already waiting for
// rate budget when another call meets the 429 is one of them: it must not wake into the pause.

/** A clock whose waits end only when the test releases them (each moves `now` by its length). */
function heldClock(start: number) {
  let now = start;
  const waiting: Array<() => void> = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        waiting.push(() => {
          now += ms;
          resolve();
        });
      }),
  };
  return { clock, waiting };
}

describe('a 429 met while a call waits for rate budget', () => {
  it('the waiting call then waits for the pause too, instead of sending into it', async () => {
    const start = Date.UTC(2025, 0, 15, 9, 0, 0);
    const { clock, waiting } = heldClock(start);
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const sent: number[] = [];
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, async () => {
        sent.push(clock.now() - start);
        // The first call's answer is the 429, given once the third call waits for budget.
        if (sent.length === 1) {
          await gate;
          return HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '120' } });
        }
        return HttpResponse.json({});
      }),
    );
    const client = testClient({
      clock,
      accessToken: 'tok',
      rateLimit: { requestsPerMinute: 2 },
      maxRetries: 0,
      maxRetryAfter: 3600,
    });
    const throttles: ThrottleEvent[] = [];
    client.on('throttle', (event) => throttles.push(event));

    const refused = rejection(client.request({ method: 'GET', path: '/v2/x' }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await client.request({ method: 'GET', path: '/v2/x' });
    let settled = false;
    const third = client.request({ method: 'GET', path: '/v2/x' }).finally(() => {
      settled = true;
    });
    // The budget of 2 is spent: the third call waits a window.
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    openGate();
    expect(await refused).toBeInstanceOf(RateLimitError);
    // Every wait the third call asks for is let go until it is answered.
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      waiting.shift()?.();
    }
    await third;
    expect(sent).toEqual([0, 0, 120_000]);
    expect(throttles).toEqual([
      { waitMs: 61_000, reason: 'pacing' },
      { waitMs: 59_000, reason: 'paused' },
    ]);
  });
});
