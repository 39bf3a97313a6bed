import type { Send } from './connection.js';

/**
 * Runs a Lua script with EVAL: always one round trip. EVALSHA would send 40 characters instead of
 * the script (under 900 bytes), but costs a second round trip whenever a server has not cached it
 * (a new or restarted server, another cluster node, SCRIPT FLUSH); Redis caches EVAL's scripts by
 * digest too, so measured on Redis 7.0 the server spends 16.5 µs per EVAL of reserve against
 * 15.7 µs per EVALSHA: not worth the fallback.
 */
export function runScript(send: Send, script: string, keys: string[], args: string[]): Promise<unknown> {
  return send(['EVAL', script, String(keys.length), ...keys, ...args], keys[0]);
}

// Lua numbers are doubles, and how redis.call writes one is the server's choice (%.17g in Redis 7.0,
// another double-to-string routine in later versions): int() writes the plain digits that SET … PX
// and PEXPIRE require, on every version.
// The clock is Redis's own (TIME, allowed in scripts since Redis 5 and in Valkey), so every
// process paces against one clock whatever its own says.
const PRELUDE = `
local function int(x) return string.format('%.0f', x) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/**
 * KEYS: window (sorted set of reserved send times), pause. ARGV: limit ('' without a budget),
 * window ms, a member unique to this reservation, the longest wait accepted ('' for any). Returns
 * { wait ms, 'paused' | 'pacing' | '' }. The rule of MemoryState.reserve: the slot is the latest of
 * now, the pause's end and a whole window after the slot `limit` places back; one farther than the
 * longest wait accepted is not taken.
 */
export const RESERVE = `${PRELUDE}
local at, reason = now, ''
local paused = tonumber(redis.call('GET', KEYS[2]))
if paused and paused > now then at, reason = paused, 'paused' end
if ARGV[1] ~= '' then
  local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', int(now - window))
  local bound = redis.call('ZRANGE', KEYS[1], -limit, -limit, 'WITHSCORES')[2]
  if bound and tonumber(bound) + window > at then at, reason = tonumber(bound) + window, 'pacing' end
  if ARGV[4] ~= '' and at - now > tonumber(ARGV[4]) then return { at - now, reason } end
  redis.call('ZADD', KEYS[1], int(at), ARGV[3])
  local last = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
  redis.call('PEXPIRE', KEYS[1], int(last - now + window))
end
return { at - now, reason }
`;

/** KEYS: pause. ARGV: ms (> 0). Sets the pause's end to now + ms unless a later one is set. */
export const PAUSE = `${PRELUDE}
local ms = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]))
if not current or current < now + ms then redis.call('SET', KEYS[1], int(now + ms), 'PX', int(ms)) end
`;

/** KEYS: lock. ARGV: holder, lease ms. 1 when free or already the holder's (the lease restarts). */
export const LOCK = `
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** KEYS: lock. ARGV: holder. Frees the lock if the holder still has it. */
export const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end`;

/**
 * KEYS: lock, token. ARGV: holder, JSON value, ms until it expires (<= 0: already expired, dropped).
 * Stores the token and frees the lock if the holder still has it.
 */
export const WRITE = `
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
else redis.call('DEL', KEYS[2]) end
${UNLOCK}
`;

/** KEYS: token. ARGV: access token. Deletes the token only if it is still that one. */
export const DROP = `
local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local ok, token = pcall(cjson.decode, value)
if ok and type(token) == 'table' and token.accessToken == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;
