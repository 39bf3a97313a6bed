import type { Clock } from '../clock.js';
import type { FailSafeState } from '../pacing/fail-safe-state.js';
import type { IssuedToken } from './issued-token.js';
import { SharedTokenSource } from './shared-token.js';
import { TokenCache } from './token-cache.js';

/**
 * The v2 credential of a client with `clientSecret`: a token cache over the token every client of the
 * state shares, obtained by `request` (the token request, made by the transport). Loaded only by
 * clients that use this flow; it imports nothing at run time from the code every client loads, so a
 * browser bundle splits it off whole (src/core/load.ts).
 * @param key the shared-state key of the token: `<account>:token:<fingerprint of URL, client id, scope>`
 */
export function clientCredentials(
  key: string,
  failSafe: FailSafeState,
  clock: Clock,
  request: () => Promise<IssuedToken>,
): TokenCache {
  return new TokenCache(new SharedTokenSource(failSafe, key, clock, request), clock);
}
