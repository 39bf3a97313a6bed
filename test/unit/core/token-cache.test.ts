import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallbackCredential } from '../../../src/core/auth/credentials.js';
import { type IssuedToken, issuedToken } from '../../../src/core/auth/issued-token.js';
import { refreshBackoffMs, TOKEN_REQUEST_GAP_MS, TokenCache } from '../../../src/core/auth/token-cache.js';
import { ResponseValidationError, ValidationError } from '../../../src/core/errors.js';
import { type FakeClock, fakeClock } from '../../helpers/clock.js';

/** One token request of the fake endpoint, settled by the test. */
interface Pending {
  resolve(token: string, expiresIn?: number): void;
  reject(error: unknown): void;
}

/** A fake token request function: counts calls and leaves each pending until the test settles it. */
function fakeEndpoint() {
  const pending: Pending[] = [];
  const request = (): Promise<IssuedToken> =>
    new Promise<IssuedToken>((resolve, reject) => {
      pending.push({
        resolve: (token, expiresIn = 3600) =>
          resolve({ access_token: token, expires_in: expiresIn, scope: undefined }),
        reject,
      });
    });
  return {
    request,
    pending,
    get requests() {
      return pending.length;
    },
    /** The latest request, which the test expects to be there. */
    last(): Pending {
      const last = pending.at(-1);
      if (last === undefined) throw new Error('no token request was made');
      return last;
    },
  };
}

/** Lets every settled promise's handlers run (microtasks only; no timer, no time passes). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

const S = 1000;
const LIFETIME = 3600 * S;
/** Where the windows of a 3600 s token start, relative to when it was obtained. */
const ADVISORY = LIFETIME - 60 * S;
const MANDATORY = LIFETIME - 10 * S;
const EXPIRY = LIFETIME;

const unavailable = () => Object.assign(new Error('POST /v2/oauth/token → 503 http_503'), { status: 503 });

/** A cache holding `at_1`, obtained at `clock.now()`, plus the endpoint behind it. */
async function warmCache(clock: FakeClock) {
  const endpoint = fakeEndpoint();
  const cache = new TokenCache({ obtain: endpoint.request }, clock);
  const first = cache.bearer();
  endpoint.last().resolve('at_1');
  expect(await first).toBe('at_1');
  expect(endpoint.requests).toBe(1);
  return { cache, endpoint };
}

let unhandled: unknown[];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  vi.useRealTimers();
  // One turn of the event loop (no time passes) so Node reports any rejection nobody handled.
  await new Promise((resolve) => setImmediate(resolve));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

describe('TokenCache: cold cache', () => {
  it('50 concurrent callers share one token request; then the token is a string, no promise', async () => {
    const clock = fakeClock();
    const endpoint = fakeEndpoint();
    const cache = new TokenCache({ obtain: endpoint.request }, clock);
    const waiting = Array.from({ length: 50 }, () => cache.bearer());
    expect(endpoint.requests).toBe(1);
    expect(waiting.every((w) => w instanceof Promise)).toBe(true);
    endpoint.last().resolve('at_1');
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 50 }, () => 'at_1'));
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(1);
  });

  it('a failed request rejects every waiter with its error, and every call within the backoff; then one request', async () => {
    const clock = fakeClock();
    const endpoint = fakeEndpoint();
    const cache = new TokenCache({ obtain: endpoint.request }, clock);
    const error = unavailable();
    const waiting = [cache.bearer(), cache.bearer(), cache.bearer()];
    endpoint.last().reject(error);
    for (const w of waiting) await expect(w).rejects.toBe(error);
    expect(endpoint.requests).toBe(1);

    // Within the backoff (1 s after the first failure) a call fails at once with that error: an
    // endpoint that is down is not asked again for every call.
    clock.advance(1 * S - 1);
    await expect(cache.bearer()).rejects.toBe(error);
    expect(endpoint.requests).toBe(1);
    clock.advance(1);
    const again = [cache.bearer(), cache.bearer()];
    expect(endpoint.requests).toBe(2);
    endpoint.last().resolve('at_1');
    expect(await Promise.all(again)).toEqual(['at_1', 'at_1']);
    expect(clock.waits).toEqual([]);
  });
  it('a request function that throws synchronously rejects the callers and does not wedge the cache', async () => {
    const clock = fakeClock();
    let requests = 0;
    const error = new Error('boom');
    const obtain = () => {
      if (++requests === 1) throw error;
      return Promise.resolve({ access_token: 'at_1', expires_in: 3600, scope: undefined });
    };
    const cache = new TokenCache({ obtain }, clock);
    await expect(cache.bearer()).rejects.toBe(error);
    clock.advance(1 * S);
    expect(await cache.bearer()).toBe('at_1');
    expect(requests).toBe(2);
  });
});

describe('TokenCache: before the advisory window', () => {
  it('returns the cached token synchronously, with no token request, up to 60 s before expiry', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY - 1);
    expect(cache.bearer()).toBe('at_1');
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(1);
  });
});

describe('TokenCache: advisory window (60 s before expiry)', () => {
  it('returns the old token synchronously and starts exactly one background refresh', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY);
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(2);
    clock.advance(20 * S);
    for (let i = 0; i < 10; i++) expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(2);

    endpoint.last().resolve('at_2');
    await settle();
    expect(cache.bearer()).toBe('at_2');
    expect(endpoint.requests).toBe(2);
  });

  it('a failing refresh (503) fails no call, is not an unhandled rejection, and is retried only after the backoff', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY);
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(2);
    endpoint.last().reject(unavailable());
    await settle();

    // Backoff 1 s, 2 s, 4 s, 8 s after consecutive failures; the old token meanwhile.
    let requests = 2;
    for (const backoff of [1, 2, 4, 8]) {
      clock.advance(backoff * S - 1);
      expect(cache.bearer()).toBe('at_1');
      expect(endpoint.requests).toBe(requests);
      clock.advance(1);
      expect(cache.bearer()).toBe('at_1');
      expect(cache.bearer()).toBe('at_1');
      expect(endpoint.requests).toBe(++requests);
      endpoint.last().reject(unavailable());
      await settle();
      expect(cache.bearer()).toBe('at_1');
    }
    expect(endpoint.requests).toBe(6);
    expect(clock.waits).toEqual([]);
  });

  it('the backoff doubles from 1 s and stops at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 100, 5000].map(refreshBackoffMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000,
    ]);
  });

  it('a success resets the backoff', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY);
    cache.bearer();
    endpoint.last().reject(unavailable());
    await settle();
    clock.advance(1 * S);
    cache.bearer();
    endpoint.last().reject(unavailable());
    await settle();
    clock.advance(2 * S);
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(4);
    endpoint.last().resolve('at_2');
    await settle();
    expect(cache.bearer()).toBe('at_2');

    // at_2's advisory window: after one failure the next try is 1 s later, not 4 s.
    clock.advance(ADVISORY);
    expect(cache.bearer()).toBe('at_2');
    expect(endpoint.requests).toBe(5);
    endpoint.last().reject(unavailable());
    await settle();
    clock.advance(1 * S);
    expect(cache.bearer()).toBe('at_2');
    expect(endpoint.requests).toBe(6);
    endpoint.last().resolve('at_3');
    await settle();
    expect(cache.bearer()).toBe('at_3');
  });

  it('scales with a short-lived token: advisory at half the lifetime', async () => {
    const clock = fakeClock();
    const endpoint = fakeEndpoint();
    const cache = new TokenCache({ obtain: endpoint.request }, clock);
    const first = cache.bearer();
    endpoint.last().resolve('at_1', 60);
    expect(await first).toBe('at_1');
    clock.advance(30 * S - 1);
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(1);
    clock.advance(1);
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(2);
  });
});

describe('TokenCache: mandatory window (10 s before expiry)', () => {
  it('blocks: callers wait for one shared refresh and get the new token', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(MANDATORY);
    const waiting = [cache.bearer(), cache.bearer(), cache.bearer()];
    expect(waiting.every((w) => w instanceof Promise)).toBe(true);
    expect(endpoint.requests).toBe(2);
    endpoint.last().resolve('at_2');
    expect(await Promise.all(waiting)).toEqual(['at_2', 'at_2', 'at_2']);
    expect(cache.bearer()).toBe('at_2');
    expect(endpoint.requests).toBe(2);
  });

  it('callers join a background refresh started in the advisory window, no second request', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY);
    expect(cache.bearer()).toBe('at_1');
    clock.advance(MANDATORY - ADVISORY);
    const waiting = cache.bearer();
    expect(waiting).toBeInstanceOf(Promise);
    expect(endpoint.requests).toBe(2);
    endpoint.last().resolve('at_2');
    expect(await waiting).toBe('at_2');
  });

  it('a failed refresh gives the still-valid old token, not an error; retried after the backoff', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(MANDATORY);
    const waiting = [cache.bearer(), cache.bearer()];
    expect(endpoint.requests).toBe(2);
    endpoint.last().reject(unavailable());
    expect(await Promise.all(waiting)).toEqual(['at_1', 'at_1']);

    // Within the backoff the old token is at hand: no wait, no request.
    clock.advance(1 * S - 1);
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(2);
    clock.advance(1);
    const again = cache.bearer();
    expect(again).toBeInstanceOf(Promise);
    expect(endpoint.requests).toBe(3);
    endpoint.last().resolve('at_2');
    expect(await again).toBe('at_2');
  });

  it('a refresh that fails after the old token expired rejects with its error', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(MANDATORY);
    const waiting = cache.bearer();
    clock.advance(EXPIRY - MANDATORY);
    const error = unavailable();
    endpoint.last().reject(error);
    await expect(waiting).rejects.toBe(error);
    expect(endpoint.requests).toBe(2);
  });
});

describe('TokenCache: expired token', () => {
  it('blocks; a failure rejects, and so does a call within the backoff; then concurrent callers share one request', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(EXPIRY);
    const error = unavailable();
    const waiting = [cache.bearer(), cache.bearer()];
    expect(endpoint.requests).toBe(2);
    endpoint.last().reject(error);
    for (const w of waiting) await expect(w).rejects.toBe(error);
    await expect(cache.bearer()).rejects.toBe(error);
    expect(endpoint.requests).toBe(2);

    clock.advance(1 * S);
    const again = [cache.bearer(), cache.bearer(), cache.bearer()];
    expect(endpoint.requests).toBe(3);
    endpoint.last().resolve('at_2');
    expect(await Promise.all(again)).toEqual(['at_2', 'at_2', 'at_2']);
    expect(cache.bearer()).toBe('at_2');
  });
});

// A Worker's module-scope client (API.md, Client): workerd drops the promises of a request that has
// ended, so a renewal started in the background by one request may never settle for the next.
describe('TokenCache: a renewal another call started is waited on no longer than the time-out', () => {
  it("a background renewal that never settles is abandoned after the waiting call's time-out and started again", async () => {
    vi.useFakeTimers();
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY);
    expect(cache.bearer(5 * S)).toBe('at_1'); // renewal #2 starts; its request ends, it never settles
    clock.advance(EXPIRY - ADVISORY);
    const waiting = cache.bearer(5 * S);
    const second = cache.bearer(5 * S);
    expect(endpoint.requests).toBe(2);
    await vi.advanceTimersByTimeAsync(5 * S - 1);
    expect(endpoint.requests).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    // Both waiters gave up on #2 at once; one new renewal serves them.
    expect(endpoint.requests).toBe(3);
    endpoint.last().resolve('at_2');
    expect(await Promise.all([waiting, second])).toEqual(['at_2', 'at_2']);
    expect(cache.bearer(5 * S)).toBe('at_2');
    expect(endpoint.requests).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
    // The abandoned renewal settling late does no harm: its token is a valid one.
    endpoint.pending[1]?.resolve('at_late');
    await settle();
    expect(clock.waits).toEqual([]);
  });

  it('a renewal that settles within the time-out is waited for, and its timer cleared', async () => {
    vi.useFakeTimers();
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY);
    expect(cache.bearer(5 * S)).toBe('at_1');
    clock.advance(EXPIRY - ADVISORY);
    const waiting = cache.bearer(5 * S);
    await vi.advanceTimersByTimeAsync(5 * S - 1);
    endpoint.last().resolve('at_2');
    expect(await waiting).toBe('at_2');
    expect(endpoint.requests).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the call that starts the renewal waits for it without a timer of its own', async () => {
    vi.useFakeTimers();
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(EXPIRY);
    const waiting = cache.bearer(5 * S);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * S);
    expect(endpoint.requests).toBe(2);
    endpoint.last().resolve('at_2');
    expect(await waiting).toBe('at_2');
  });
});

describe('TokenCache: invalidate', () => {
  it('drops the token only when it is the current one, and always answers true', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    expect(cache.invalidate('at_0')).toBe(true);
    expect(cache.bearer()).toBe('at_1');
    expect(endpoint.requests).toBe(1);

    expect(cache.invalidate('at_1')).toBe(true);
    const waiting = cache.bearer();
    expect(waiting).toBeInstanceOf(Promise);
    // The new request waits out the gap after the first one (TOKEN_REQUEST_GAP_MS).
    expect(endpoint.requests).toBe(1);
    await settle();
    expect(clock.waits).toEqual([TOKEN_REQUEST_GAP_MS]);
    expect(endpoint.requests).toBe(2);
    endpoint.last().resolve('at_2');
    expect(await waiting).toBe('at_2');
    expect(cache.bearer()).toBe('at_2');
  });

  it('a refresh that started before the invalidation does not install its token', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(ADVISORY);
    expect(cache.bearer()).toBe('at_1'); // background refresh in flight
    cache.invalidate('at_1');
    const waiting = cache.bearer();
    expect(endpoint.requests).toBe(2);
    endpoint.last().resolve('at_stale');
    expect(await waiting).toBe('at_stale');
    // Not cached: the next call asks for a token of its own.
    const next = cache.bearer();
    expect(next).toBeInstanceOf(Promise);
    await settle();
    expect(clock.waits).toEqual([TOKEN_REQUEST_GAP_MS]);
    expect(endpoint.requests).toBe(3);
    endpoint.last().resolve('at_2');
    expect(await next).toBe('at_2');
  });

  it('after an invalidation during a failing background refresh, callers get the error (no dropped token)', async () => {
    const clock = fakeClock();
    const { cache, endpoint } = await warmCache(clock);
    clock.advance(MANDATORY);
    const waiting = cache.bearer();
    cache.invalidate('at_1');
    const error = unavailable();
    endpoint.last().reject(error);
    await expect(waiting).rejects.toBe(error);
  });
});

describe('token values that cannot go in a header', () => {
  const SECRET = 'at_CANARY_BAD_TOKEN';
  const bad = [
    ['empty', ''],
    ['LF', `${SECRET}\nX-Injected: 1`],
    ['CR', `${SECRET}\r`],
    ['NUL', `${SECRET}\0`],
    ['tab', `${SECRET}\t`],
    ['DEL', `${SECRET}\x7f`],
    ['ESC', `${SECRET}\x1b`],
    ['non-Latin-1', `${SECRET}€`],
    ['emoji', `${SECRET}🔑`],
  ] as const;

  it.each(bad)(
    'issuedToken refuses %s with a ResponseValidationError that does not contain it',
    (_name, value) => {
      const error = (() => {
        try {
          issuedToken(
            { access_token: value, token_type: 'Bearer', expires_in: 3600 },
            'POST /v2/oauth/token',
          );
        } catch (e) {
          return e;
        }
        throw new Error('accepted');
      })();
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues).toEqual([
        { path: 'access_token', message: expect.any(String) },
      ]);
      expect((error as Error).message).toContain('POST /v2/oauth/token');
      const everything = JSON.stringify({ ...(error as object), message: (error as Error).message });
      if (value !== '') expect(everything).not.toContain(SECRET);
      expect((error as Error).cause).toBeUndefined();
    },
  );

  it('issuedToken accepts printable ASCII and Latin-1 tokens, in either envelope', () => {
    const token = 'eyJhbGciOi.J-_~+/=é';
    expect(issuedToken({ data: { access_token: token, expires_in: 60 } }, 'op')).toEqual({
      access_token: token,
      expires_in: 60,
      scope: undefined,
    });
    expect(issuedToken({ access_token: 'a b', expires_in: 60, scope: 's' }, 'op').access_token).toBe('a b');
  });

  it.each(bad)(
    'the accessToken function resolving %s fails with a ValidationError that does not contain it',
    async (_name, value) => {
      const credential = new CallbackCredential(async () => value);
      const error = await Promise.resolve(credential.bearer()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ issues: [{ path: 'accessToken' }] });
      expect((error as Error).message).toMatch(/^The accessToken function/);
      expect((error as Error).cause).toBeUndefined();
      if (value !== '')
        expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(
          SECRET,
        );
    },
  );

  it('a token refused by issuedToken fails a cold call with that error, and the next call after the backoff asks again', async () => {
    const clock = fakeClock();
    let requests = 0;
    const obtain = async () => {
      requests++;
      return issuedToken({ access_token: requests === 1 ? 'a\nb' : 'at_ok', expires_in: 3600 }, 'op');
    };
    const cache = new TokenCache({ obtain }, clock);
    await expect(cache.bearer()).rejects.toBeInstanceOf(ResponseValidationError);
    clock.advance(1 * S);
    expect(await cache.bearer()).toBe('at_ok');
    expect(requests).toBe(2);
  });
});
