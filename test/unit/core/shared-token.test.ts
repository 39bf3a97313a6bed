import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/auth/fingerprint.js';
import { MemoryState } from '../../../src/core/pacing/shared-state.js';
import { BASE, CANARY, testClient } from '../../helpers/client.js';
import { fakeClock } from '../../helpers/clock.js';
import { recordingKeys } from '../../helpers/recording-state.js';
import { server } from '../../helpers/server.js';

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

  it('a waiting client polls on the clock until the holder stores its token', async () => {
    const { counts } = service();
    const state = new MemoryState();
    const clock = fakeClock();
    // Another process holds the lock: this client waits, then takes over when the lease ends.
    const key = `${CANARY.clientId}:token:${fingerprint(`${BASE} ${CANARY.clientId} `)}`;
    expect(await state.lockToken(key, 'someone', 30_000, clock.now())).toBe(true);
    await testClient({ sharedState: state, clock }).request({ method: 'GET', path: '/v2/x' });
    expect(counts.tokens).toBe(1);
    // Polled every 100 ms of the client's clock until the 30 s lease ran out.
    expect(clock.waits.length).toBe(300);
    expect(clock.waits.every((ms) => ms === 100)).toBe(true);
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
