import type { Clock } from '../clock.js';
import type { ClientEmitter } from '../events.js';
import type { SharedStateGuard } from '../pacing/guard.js';
import { fingerprint } from './fingerprint.js';
import { type FormPost, requestToken } from './request-token.js';
import { SharedTokenSource } from './shared-token.js';
import { TokenCache } from './token-cache.js';

/** The options of the OAuth client-credentials flow. */
export interface ClientCredentialsOptions {
  /** The account part of shared-state keys. */
  account: string;
  baseUrl: string | undefined;
  clientId: string | undefined;
  clientSecret: string;
  /** Space-separated. */
  scope: string | undefined;
}

/**
 * The v2 credential of a client with `clientSecret`: a token cache over the token every client of the
 * state shares, obtained by the token request. Loaded only by clients that use this flow.
 */
export function clientCredentials(
  options: ClientCredentialsOptions,
  guard: SharedStateGuard,
  clock: Clock,
  events: ClientEmitter,
  post: FormPost,
): TokenCache {
  const { account, baseUrl, clientId, clientSecret, scope } = options;
  // One token per token URL, client id and scope: clients of one account may use several client ids.
  const key = `${account}:token:${fingerprint(`${baseUrl} ${clientId} ${scope ?? ''}`)}`;
  const source = new SharedTokenSource(guard, key, clock, () =>
    requestToken(post, events, baseUrl, clientId, clientSecret, scope),
  );
  return new TokenCache(
    () => source.obtain(),
    clock,
    (token) => source.drop(token),
  );
}
