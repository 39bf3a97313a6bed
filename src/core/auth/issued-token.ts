import { ResponseValidationError } from '../errors.js';
import { isHeaderSafe } from './credentials.js';

/** What a successful token request gave. */
export interface IssuedToken {
  access_token: string;
  /** Seconds the token is valid for, as the answer said (see {@link lifetimeOf}). */
  expires_in: number;
  /** The granted scope, when the answer names one (a token read from the shared state does not). */
  scope?: string | undefined;
}

/** Lifetime used when the answer has no readable `expires_in` (RFC 6749 makes it optional): short, so a 401 is rare and a longer-lived token is only renewed early. */
const DEFAULT_LIFETIME_S = 300;
/** Longest lifetime used: a token is renewed at least daily, whatever the answer claimed. */
const MAX_LIFETIME_S = 86_400;

/**
 * The seconds a token is valid for: `expires_in` as a number or a numeric string, at most
 * {@link MAX_LIFETIME_S} and never more than the answer said (a negative one is 0: the token is
 * used only by the calls that waited for it); {@link DEFAULT_LIFETIME_S} when it is missing or
 * unreadable. The token itself is what the call needs: a doubtful lifetime never fails it. A short
 * lifetime is not stretched: the token cache spaces its token requests instead (token-cache.ts).
 */
function lifetimeOf(expiresIn: unknown): number {
  const seconds =
    typeof expiresIn === 'string' && /^\d+(?:\.\d+)?$/.test(expiresIn.trim()) ? Number(expiresIn) : expiresIn;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return DEFAULT_LIFETIME_S;
  return Math.min(MAX_LIFETIME_S, Math.max(0, seconds));
}

/**
 * The token of a 2xx token answer, in SPEC.md's `{ data: {...} }` envelope or RFC 6749's bare form.
 * An answer without a string `access_token`, or whose `access_token` cannot go in an HTTP header
 * (empty, control or non-Latin-1 character), is a `ResponseValidationError` (without the value).
 */
export function issuedToken(answer: unknown, operation: string): IssuedToken {
  const parsed = answer as Record<string, unknown> | undefined;
  const data = parsed?.data as Record<string, unknown> | undefined;
  const payload = data?.access_token !== undefined ? data : parsed;
  const accessToken = payload?.access_token;
  if (typeof accessToken !== 'string') {
    throw new ResponseValidationError(`${operation}: the token response lacks access_token`, [
      { path: 'access_token', message: 'missing or wrong type' },
    ]);
  }
  if (!isHeaderSafe(accessToken)) {
    // The value itself stays out: it may be a real token with one stray character.
    throw new ResponseValidationError(`${operation}: the access_token cannot go in an HTTP header`, [
      { path: 'access_token', message: 'empty, or a control or non-Latin-1 character' },
    ]);
  }
  const scope = typeof payload?.scope === 'string' ? payload.scope : undefined;
  return { access_token: accessToken, expires_in: lifetimeOf(payload?.expires_in), scope };
}
