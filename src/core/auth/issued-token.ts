import type { ResponseValidationError } from '../errors.js';
import type { isHeaderSafe } from './credentials.js';

/**
 * What the check uses of the code every client loads, handed in by token-parts.ts: a browser loads
 * this file with the client-credentials flow, on first use, and a chunk that imported them would
 * split them off the first load into a chunk of their own.
 */
export interface TokenCheckParts {
  ResponseValidationError: typeof ResponseValidationError;
  isHeaderSafe: typeof isHeaderSafe;
}

/** What a successful token request gave. */
export interface IssuedToken {
  access_token: string;
  /** Seconds the client uses the token for (see {@link lifetimeOf}). */
  expires_in: number;
  /** The granted scope, when the answer names one (a token read from the shared state does not). */
  scope?: string | undefined;
}

/** Lifetime used when the answer has no readable `expires_in` (RFC 6749 makes it optional): short, so a 401 is rare and a longer-lived token is only renewed early. */
const DEFAULT_LIFETIME_S = 300;
/** Shortest lifetime used: `expires_in: 0` (or 1) must not cost one token request per call. */
const MIN_LIFETIME_S = 10;
/** Longest lifetime used: a token is renewed at least daily, whatever the answer claimed. */
const MAX_LIFETIME_S = 86_400;

/**
 * The seconds a token is used for: `expires_in` as a number or a numeric string, kept within
 * [{@link MIN_LIFETIME_S}, {@link MAX_LIFETIME_S}]; {@link DEFAULT_LIFETIME_S} when it is missing or
 * unreadable. The token itself is what the call needs: a doubtful lifetime never fails it.
 */
function lifetimeOf(expiresIn: unknown): number {
  const seconds =
    typeof expiresIn === 'string' && /^\d+(?:\.\d+)?$/.test(expiresIn.trim()) ? Number(expiresIn) : expiresIn;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return DEFAULT_LIFETIME_S;
  return Math.min(MAX_LIFETIME_S, Math.max(MIN_LIFETIME_S, seconds));
}

/**
 * The token of a 2xx token answer, in SPEC.md's `{ data: {...} }` envelope or RFC 6749's bare form.
 * An answer without a string `access_token`, or whose `access_token` cannot go in an HTTP header
 * (empty, control or non-Latin-1 character), is a `ResponseValidationError` (without the value).
 */
export function issuedToken(answer: unknown, operation: string, parts: TokenCheckParts): IssuedToken {
  const { ResponseValidationError, isHeaderSafe } = parts;
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
