import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fingerprint } from '../../../src/core/auth/fingerprint.js';
import { systemClock } from '../../../src/core/clock.js';
import { MemoryState } from '../../../src/core/pacing/shared-state.js';
import { BASE, CANARY, testClient } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { recordingKeys } from '../../helpers/recording-state.js';
import { server } from '../../helpers/server.js';

/** The key of the canary client's token (token URL, client id, no scope). */
const TOKEN_KEY = `${CANARY.clientId}:token:${fingerprint(`${BASE} ${CANARY.clientId} `)}`;

/**
 * A token endpoint whose first answer (tok_1) waits for `release()`; later ones (tok_2 …) answer at
 * once. GET /v2/x records the tokens it is sent.
 */
function heldTokenEndpoint() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrivals: Array<() => void> = [];
  const gate = {
    requests: 0,
    seen: [] as string[],
    release: () => release(),
    /** Resolves once `n` token requests have arrived. */
    requested: (n: number) =>
      new Promise<void>((resolve) => {
        if (gate.requests >= n) resolve();
        else arrivals.push(() => gate.requests >= n && resolve());
      }),
  };
  server.use(
    http.post(`${BASE}/v2/oauth/token`, async () => {
      const n = ++gate.requests;
      for (const arrived of arrivals) arrived();
      if (n === 1) await released;
      return HttpResponse.json({ access_token: `tok_${n}`, expires_in: 3600 });
    }),
    http.get(`${BASE}/v2/x`, ({ request }) => {
      gate.seen.push(request.headers.get('authorization')?.replace('Bearer ', '') ?? '');
      return HttpResponse.json({});
    }),
  );
  return gate;
}

/** A token endpoint issuing tok_1, tok_2 … and a data endpoint that accepts `valid` tokens only. */
function service(valid: (token: string) => boolean = () => true) {
  const counts = { tokens: 0, hits: 0 };
  const seen: string[] = [];
  server.use(
    http.post(`${BASE}/v2/oauth/token`, () =>
      HttpResponse.json({ access_token: `tok_${++counts.tokens}`, expires_in: 3600 }),
    ),
    http.get(`${BASE}/v2/x`, ({ request }) => {
      counts.hits++;
      const token = request.headers.get('authorization')?.replace('Bearer ', '') ?? '';
      seen.push(token);
      return valid(token)
        ? HttpResponse.json({})
        : HttpResponse.json({ status: 'error', code: 'unauthorized', message: 'm' }, { status: 401 });
    }),
  );
  return { counts, seen };
}

describe('one token for every client sharing a state', () => {
  it('4 cold clients × 50 concurrent calls make exactly 1 token request', async () => {
    const { counts, seen } = service();
    const state = new MemoryState();
    const clients = Array.from({ length: 4 }, () => testClient({ sharedState: state }));
    await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: 50 }, () => client.request({ method: 'GET', path: '/v2/x' })),
      ),
    );
    expect(counts).toEqual({ tokens: 1, hits: 200 });
    expect(new Set(seen)).toEqual(new Set(['tok_1']));
  });

  it('a client that joins later uses the stored token', async () => {
    const { counts } = service();
    const state = new MemoryState();
    await testClient({ sharedState: state }).request({ method: 'GET', path: '/v2/x' });
    await testClient({ sharedState: state }).request({ method: 'GET', path: '/v2/x' });
    expect(counts.tokens).toBe(1);
  });

  it('different scopes or client ids do not share a token', async () => {
    const { counts } = service();
    const state = new MemoryState();
    await testClient({ sharedState: state }).request({ method: 'GET', path: '/v2/x' });
    await testClient({ sharedState: state, scope: 'calls:read' }).request({ method: 'GET', path: '/v2/x' });
    await testClient({ sharedState: state, clientId: 'other_client' }).request({
      method: 'GET',
      path: '/v2/x',
    });
    expect(counts.tokens).toBe(3);
  });

  it('a 401 drops the shared token and every client moves to the new one (one more token request)', async () => {
    let revoked = false;
    const { counts, seen } = service((token) => !(revoked && token === 'tok_1'));
    const state = new MemoryState();
    const [a, b] = [testClient({ sharedState: state }), testClient({ sharedState: state })];
    await a.request({ method: 'GET', path: '/v2/x' });
    await b.request({ method: 'GET', path: '/v2/x' });
    revoked = true;
    await a.request({ method: 'GET', path: '/v2/x' });
    await b.request({ method: 'GET', path: '/v2/x' });
    expect(counts.tokens).toBe(2);
    expect(seen).toEqual(['tok_1', 'tok_1', 'tok_1', 'tok_2', 'tok_1', 'tok_2']);
  });

  it('compare and delete: a late 401 for an old token does not drop the newer one', async () => {
    const state = new MemoryState();
    const key = 'client_CANARY_ID:token:x';
    await state.writeToken(
      key,
      { accessToken: 'new', expiresAt: Date.now() + 60_000, obtainedAt: Date.now() },
      'h',
    );
    await state.dropToken(key, 'old');
    expect((await state.readToken(key, Date.now()))?.accessToken).toBe('new');
    await state.dropToken(key, 'new');
    expect(await state.readToken(key, Date.now())).toBeUndefined();
  });

  it('a waiting client polls every 100 ms; a holder still holding after 10 s: it requests a token itself and stores it', async () => {
    const { counts } = service();
    const state = new MemoryState();
    const clock = fakeClock();
    // Another holder has the lock and keeps it (its lease renewed, its request hung): this client
    // does not wait on it for ever.
    expect(await state.lockToken(TOKEN_KEY, 'someone', 60_000, clock.now())).toBe(true);
    await testClient({ sharedState: state, clock }).request({ method: 'GET', path: '/v2/x' });
    expect(counts.tokens).toBe(1);
    expect(clock.waits).toEqual(Array.from({ length: 100 }, () => 100));
    // The token it got is shared: a client joining later uses it.
    await testClient({ sharedState: state, clock }).request({ method: 'GET', path: '/v2/x' });
    expect(counts.tokens).toBe(1);
  });

  it('a holder that stops renewing (it died) blocks the others for its 4 s lease, not 30 s', async () => {
    const gate = heldTokenEndpoint();
    const state = new MemoryState();
    const clock = fakeClock();
    // The first client takes the lock and its token request hangs; its lease is renewed on timers,
    // faked here and never advanced: to the others it is a holder that died.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const holder = testClient({ sharedState: state, clock }).request({ method: 'GET', path: '/v2/x' });
    await gate.requested(1);
    const waiter = testClient({ sharedState: state, clock });
    await waiter.request({ method: 'GET', path: '/v2/x' });
    expect(gate.requests).toBe(2);
    expect(clock.waits).toEqual(Array.from({ length: 40 }, () => 100));
    gate.release();
    await holder;
  });

  describe('on timers (a renewal runs every 1.5 s of real time)', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('a live holder renews its lease while its token request runs (8 s): the others wait and use its token', async () => {
      const gate = heldTokenEndpoint();
      const state = new MemoryState();
      const holder = testClient({ sharedState: state, clock: systemClock });
      const first = holder.request({ method: 'GET', path: '/v2/x' });
      await gate.requested(1);
      const second = testClient({ sharedState: state, clock: systemClock }).request({
        method: 'GET',
        path: '/v2/x',
      });
      await vi.advanceTimersByTimeAsync(8_000);
      expect(gate.requests).toBe(1);
      gate.release();
      await vi.advanceTimersByTimeAsync(200);
      await Promise.all([first, second]);
      expect(gate.requests).toBe(1);
      expect(gate.seen).toEqual(['tok_1', 'tok_1']);
    });

    it('a live holder whose request hangs: after 10 s the others request a token themselves', async () => {
      const gate = heldTokenEndpoint();
      const state = new MemoryState();
      const first = testClient({ sharedState: state, clock: systemClock }).request({
        method: 'GET',
        path: '/v2/x',
      });
      await gate.requested(1);
      let done = false;
      const second = testClient({ sharedState: state, clock: systemClock })
        .request({ method: 'GET', path: '/v2/x' })
        .then(() => {
          done = true;
        });
      await vi.advanceTimersByTimeAsync(9_900);
      expect([gate.requests, done]).toEqual([1, false]);
      await vi.advanceTimersByTimeAsync(200);
      expect([gate.requests, done]).toEqual([2, true]);
      await second;
      gate.release();
      await vi.advanceTimersByTimeAsync(0);
      await first;
      expect(gate.seen).toEqual(['tok_2', 'tok_1']);
    });
  });

  it('keys name the account and carry no secret or token', async () => {
    service();
    const keys: string[] = [];
    const recording = recordingKeys(new MemoryState(), keys);
    const client = testClient({ sharedState: recording, rateLimit: 'pro' });
    await client.request({ method: 'GET', path: '/v2/x' });
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.startsWith(`${CANARY.clientId}:`)).toBe(true);
      for (const secret of [CANARY.clientSecret, CANARY.apiKey, 'tok_1']) expect(key).not.toContain(secret);
    }
  });
});
