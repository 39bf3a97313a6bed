// Key layout (the table is in redisState's doc comment): the client's `<account>:<rest>` key becomes
// `<prefix>{<account>}:<rest>:<kind>`, so every key of one account shares one Redis Cluster hash tag
// (a script touching two of them stays on one node). Each kind has its own suffix, so two different
// keys never map to one Redis key.

/** Default key prefix of both stores. */
export const DEFAULT_PREFIX = 'telephony:';

type Kind = 'window' | 'pause' | 'members' | 'epoch' | 'refill' | 'token' | 'lock';

/** A key prefix with no `{` or `}`, which would move the hash tag. */
export function checkPrefix(prefix: string): string {
  if (/[{}]/.test(prefix)) {
    throw new TypeError(
      `telephony-sdk/redis: prefix must not contain '{' or '}' (got ${JSON.stringify(prefix)})`,
    );
  }
  return prefix;
}

/** The Redis key of `kind` for the client's `<account>:<rest>` key. */
export function accountKey(prefix: string, key: string, kind: Kind): string {
  const colon = key.indexOf(':');
  if (colon <= 0) {
    throw new TypeError(
      `telephony-sdk/redis: expected a key of the form <account>:<rest>, got ${JSON.stringify(key)}`,
    );
  }
  return `${prefix}{${key.slice(0, colon)}}${key.slice(colon)}:${kind}`;
}
