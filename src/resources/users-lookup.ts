import type { TelephonyError } from '../core/errors.js';
import type { WithResponse } from '../core/response/api-promise.js';
import { quote } from '../core/zod-issues.js';
import type { User, Users } from './users.js';

/**
 * What a `users.create` whose outcome is `unknown` does before it rejects, loaded by `import()` when
 * first needed (users.ts): a client whose creates are answered never loads it.
 */

/**
 * The user a lost create may have made, found by e-mail (an e-mail names one user: `users.list` with
 * `search`, one request), with that list's answer. Rejects with `error`, its message saying to ask
 * again, when the list fails or does not hold the user.
 */
export async function settleUnknownCreate(
  users: Users,
  error: TelephonyError,
  email: string,
  signal: AbortSignal | undefined,
): Promise<WithResponse<User>> {
  const listed = await users
    .list({ search: email, per_page: 100 }, { signal })
    .withResponse()
    .catch(() => undefined);
  const page = listed?.data;
  const wanted = email.toLowerCase();
  const found = page?.items.find((user) => user.email.toLowerCase() === wanted);
  if (found !== undefined && listed !== undefined) return { ...listed, data: found };
  error.message += ` users.list({ search: ${quote(email, 40)} }) ${page ? 'found no such user just now' : 'failed too'}: ask it again before creating the user again.`;
  throw error;
}
