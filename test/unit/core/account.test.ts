import { HttpResponse, http } from 'msw';
import { RateLimitError, TelephonyClient, type ThrottleEvent, ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import type { ClientOptions } from '../../../src/core/options.js';
import { MemoryState } from '../../../src/core/pacing/shared-state.js';
import { BASE, CANARY, rejection } from '../../helpers/client.js';
import { type FakeClock, fakeClock } from '../../helpers/clock.js';
import { recordingKeys } from '../../helpers/recording-state.js';
import { server } from '../../helpers/server.js';

// API.md, Scale: `account` names what clients share through a `sharedState` (budget, pauses, token).
// It is never derived from a credential: clients built with `accessToken` functions used to share one
// constant account (a tenant's 429 paused every other tenant), and two processes of one account with
// different static tokens got separate budgets.

/** GET /v2/x answers 429 (Retry-After 30) to the token `tok_429`, 200 to any other; records each token sent. */
function service() {
  const seen: string[] = [];
  const tokens = { requests: 0 };
  server.use(
    http.post(`${BASE}/v2/oauth/token`, () =>
      HttpResponse.json({ access_token: `tok_${++tokens.requests}`, expires_in: 3600 }),
    ),
    http.get(`${BASE}/v2/x`, ({ request }) => {
      const token = request.headers.get('authorization')?.replace('Bearer ', '') ?? '';
      seen.push(token);
      return token === 'tok_429'
        ? HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '30' } })
        : HttpResponse.json({});
    }),
  );
  return { seen, tokens };
}

/** A v2 client on BASE without the canary client credentials (the options given decide). */
function client(options: ClientOptions, clock: FakeClock): TelephonyClient {
  return new TelephonyClient({ baseUrl: BASE, clock, maxRetries: 0, ...options });
}

const get = { method: 'GET', path: '/v2/x' } as const;

describe('account: whose budget, pauses and token a sharedState holds', () => {
  it('sharedState with neither account nor clientId is a ValidationError naming account', () => {
    const sharedState = new MemoryState();
    for (const accessToken of [async () => 'tok_a', 'tok_static']) {
      const error = (() => {
        try {
          client({ accessToken, sharedState }, fakeClock());
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([{ path: 'account', message: expect.any(String) }]);
      expect((error as Error).message).not.toContain('tok_static');
    }
  });

  it('refuses an account that is not a non-empty string', () => {
    for (const account of ['', '   ', 42, {}]) {
      const error = (() => {
        try {
          client(
            { accessToken: 'tok', account: account as string, sharedState: new MemoryState() },
            fakeClock(),
          );
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toBe('account');
    }
  });

  it("tenants with accessToken functions and their own accounts share nothing: A's 429 does not pause B", async () => {
    const { seen } = service();
    const clock = fakeClock();
    const sharedState = new MemoryState();
    const a = client({ accessToken: async () => 'tok_429', account: 'tenant-a', sharedState }, clock);
    const b = client({ accessToken: async () => 'tok_b', account: 'tenant-b', sharedState }, clock);
    const throttles: ThrottleEvent[] = [];
    b.on('throttle', (event) => throttles.push(event));
    expect(await rejection(a.request(get))).toBeInstanceOf(RateLimitError);
    await b.request(get);
    expect(throttles).toEqual([]);
    expect(seen).toEqual(['tok_429', 'tok_b']);
    expect(clock.waits).toEqual([]);
  });

  it('clients of one account share the pause and the budget, each with its own static token', async () => {
    const { seen } = service();
    const clock = fakeClock();
    const sharedState = new MemoryState();
    const rateLimit = { requestsPerMinute: 2 };
    const a = client({ accessToken: 'tok_429', account: 'acct', sharedState, rateLimit }, clock);
    const b = client({ accessToken: 'tok_b', account: 'acct', sharedState, rateLimit }, clock);
    const throttles: ThrottleEvent[] = [];
    b.on('throttle', (event) => throttles.push(event));
    await rejection(a.request(get));
    await b.request(get);
    expect(throttles).toEqual([{ waitMs: 30_000, reason: 'paused' }]);
    // Two slots of the budget are spent (one each): b's next call waits a window from a's.
    await b.request(get);
    expect(throttles[1]).toEqual({ waitMs: 61_000 - 30_000, reason: 'pacing' });
    expect(seen).toEqual(['tok_429', 'tok_b', 'tok_b']);
  });

  it('keys start with the account and never hold a token or secret; static tokens do not change them', async () => {
    service();
    const keys: string[] = [];
    const sharedState = recordingKeys(new MemoryState(), keys);
    const clock = fakeClock();
    const tokens = ['at_CANARY_ONE_1f2e', 'at_CANARY_TWO_3a4b'];
    for (const accessToken of tokens) {
      await client({ accessToken, account: 'acct_k', sharedState, rateLimit: 'pro' }, clock).request(get);
    }
    expect(keys).toEqual(['acct_k:v2', 'acct_k:v2']);
  });

  it('one account, one client id: one token; another client id under the same account: its own token', async () => {
    const { tokens, seen } = service();
    const sharedState = new MemoryState();
    const clock = fakeClock();
    const credentials = (clientId: string) => ({ clientId, clientSecret: CANARY.clientSecret });
    for (const id of ['app_1', 'app_1', 'app_2']) {
      await client({ ...credentials(id), account: 'acct_t', sharedState }, clock).request(get);
    }
    expect(tokens.requests).toBe(2);
    expect(seen).toEqual(['tok_1', 'tok_1', 'tok_2']);
  });

  it('without sharedState nothing is shared, whatever the account: each client its own memory', async () => {
    service();
    const clock = fakeClock();
    const a = client({ accessToken: 'tok_429', account: 'same' }, clock);
    const b = client({ accessToken: 'tok_b', account: 'same' }, clock);
    const unnamed = client({ accessToken: async () => 'tok_c' }, clock);
    const throttles: ThrottleEvent[] = [];
    b.on('throttle', (event) => throttles.push(event));
    unnamed.on('throttle', (event) => throttles.push(event));
    await rejection(a.request(get));
    await b.request(get);
    await unnamed.request(get);
    expect(throttles).toEqual([]);
  });
});
