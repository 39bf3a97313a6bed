import type { Clock } from '../clock.js';
import type { ClientEmitter } from '../events.js';
import type { Pacer } from '../pacing/pacer.js';
import { fingerprint } from './fingerprint.js';
import { requestToken, type TokenPost } from './request-token.js';
import { SharedTokenSource } from './shared-token.js';
import { TokenCache } from './token-cache.js';

/** What the client-credentials flow is made with: the client's settings and the token request's POST. */
export interface ClientCredentialsSettings {
  /** The token URL's base (the client's `baseUrl`). */
  baseUrl: string | undefined;
  clientId: string | undefined;
  clientSecret: string;
  /** The scope asked for, space-separated. */
  scope: string | undefined;
  clock: Clock;
  events: ClientEmitter;
  /** The token request's POST, made by the transport. */
  post: TokenPost;
}

/**
 * The v2 credential of a client with `clientSecret`: a token cache over the token every client of the
 * state shares, kept under `<account>:token:<fingerprint of token URL, client id and scope>` (clients
 * of one account may use several client ids). Loaded by `import()` (credentials.ts), only by
 * clients that use this flow.
 */
export function clientCredentials(settings: ClientCredentialsSettings, pacer: Pacer): TokenCache {
  const { baseUrl, clientId, clientSecret, scope, clock, events, post } = settings;
  const key = `${pacer.account}:token:${fingerprint(`${baseUrl} ${clientId} ${scope ?? ''}`)}`;
  const request = () => requestToken(post, events, clientId, clientSecret, scope);
  return new TokenCache(new SharedTokenSource(pacer.failSafe, key, clock, request), clock);
}
