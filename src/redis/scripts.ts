import type { Send } from './connection.js';

/**
 * A Lua script run by digest: `EVALSHA` sends 40 characters instead of the script (up to 0.9 kB, which
 * the client encodes and the server hashes on every `EVAL`). A server that does not hold it (a new
 * or restarted server, another cluster node, `SCRIPT FLUSH`) answers `NOSCRIPT`, and the call is sent
 * again as `EVAL`, which caches it there: two round trips once per server, one ever after. The
 * digest is computed with Web Crypto on first use; calls until it is ready use `EVAL`.
 */
export class LuaScript {
  readonly #source: string;
  #sha: string | undefined;
  #digesting = false;

  constructor(source: string) {
    this.#source = source;
  }

  /** Runs the script on the node of `keys[0]`: one round trip, two after a `NOSCRIPT`. */
  run(send: Send, keys: string[], args: string[]): Promise<unknown> {
    const sha = this.#sha;
    const rest = [String(keys.length), ...keys, ...args];
    if (sha === undefined) {
      this.#digest();
      return this.#eval(send, rest, keys[0]);
    }
    return send(['EVALSHA', sha, ...rest], keys[0]).catch((error: unknown) => {
      if (!isNoScript(error)) throw error;
      return this.#eval(send, rest, keys[0]);
    });
  }

  #eval(send: Send, rest: string[], key: string | undefined): Promise<unknown> {
    return send(['EVAL', this.#source, ...rest], key);
  }

  #digest(): void {
    if (this.#digesting) return;
    this.#digesting = true;
    crypto.subtle.digest('SHA-1', new TextEncoder().encode(this.#source)).then(
      (digest) => {
        this.#sha = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
      },
      // Without a digest the script keeps going by EVAL, as it did before the digest was asked for.
      () => {},
    );
  }
}

/** Redis (and Valkey) answer `NOSCRIPT No matching script…` to an EVALSHA whose script they do not hold. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
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
 * KEYS: window (sorted set of reserved send times), pause, members (sorted set of processes by last
 * reservation), epoch (names the window's data: a new one after a restart or a flush), refill (the
 * processes that wrote their sends back into this epoch's window). ARGV: 1 limit ('' without a
 * budget), 2 window ms, 3 a member unique to this reservation, 4 the longest wait accepted ('' for
 * any), 5 the client's share wait ('' for none), 6 this process's id when it is due to say it is
 * alive ('' otherwise), 7 the slots of this client to remove (members, space-separated: granted, then
 * not used), 8 the epoch the client knows ('' for none), 9 this process's id when this reservation
 * writes its sends back ('' otherwise), 10 the processes expected to write theirs back ('' unknown),
 * then 11… ages (ms before now) of the client's sends to write back into the window first.
 *
 * Returns { wait ms, reason, reservations held before this one, processes seen in the last 15 s,
 * epoch, processes that wrote their sends back }. Reason `'lost'`: the epoch the client knows is gone
 * (the window went with it): no slot is taken, nothing is written, and the client asks again with its
 * sends. `'refilling'`: the window may still lack sends others have yet to write back (fewer than
 * expected have), and the client's share would send later than the window says: no slot is taken, and
 * the client asks again shortly instead of booking a slot on its share. Otherwise the rule of
 * MemoryState.reserve: the slot is the latest of now, the pause's end and a whole window after the slot
 * `limit` places back; one farther than the longest wait is not taken.
 */
export const RESERVE = new LuaScript(`${PRELUDE}
local at, reason, held, members, epoch, refilled = now, '', 0, 0, '', 0
local paused = tonumber(redis.call('GET', KEYS[2]))
if paused and paused > now then at, reason = paused, 'paused' end
if ARGV[1] ~= '' then
  local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
  epoch = redis.call('GET', KEYS[4])
  if not epoch then
    epoch = ARGV[3]
    redis.call('SET', KEYS[4], epoch, 'PX', 86400000)
    redis.call('DEL', KEYS[5])
  elseif ARGV[6] ~= '' then redis.call('PEXPIRE', KEYS[4], 86400000) end
  if ARGV[8] ~= '' and ARGV[8] ~= epoch then return { 0, 'lost', 0, 0, epoch, 0 } end
  for slot in string.gmatch(ARGV[7], '%S+') do redis.call('ZREM', KEYS[1], slot) end
  for i = 11, #ARGV do redis.call('ZADD', KEYS[1], int(now - tonumber(ARGV[i])), ARGV[3] .. ':' .. i) end
  if ARGV[9] ~= '' then
    redis.call('SADD', KEYS[5], ARGV[9])
    redis.call('PEXPIRE', KEYS[5], int(window))
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', int(now - window))
  held = redis.call('ZCARD', KEYS[1])
  local bound = redis.call('ZRANGE', KEYS[1], -limit, -limit, 'WITHSCORES')[2]
  if bound and tonumber(bound) + window > at then at, reason = tonumber(bound) + window, 'pacing' end
  if ARGV[6] ~= '' then
    redis.call('ZADD', KEYS[3], now, ARGV[6])
    redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', int(now - 15000))
    redis.call('PEXPIRE', KEYS[3], 15000)
  end
  members = redis.call('ZCARD', KEYS[3])
  if ARGV[5] ~= '' then
    refilled = redis.call('SCARD', KEYS[5])
    if (ARGV[10] == '' or refilled < tonumber(ARGV[10])) and now + tonumber(ARGV[5]) > at then
      return { tonumber(ARGV[5]), 'refilling', held, members, epoch, refilled }
    end
  end
  if ARGV[4] ~= '' and at - now > tonumber(ARGV[4]) then return { at - now, reason, held, members, epoch, refilled } end
  redis.call('ZADD', KEYS[1], int(at), ARGV[3])
  local last = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
  redis.call('PEXPIRE', KEYS[1], int(last - now + window))
end
return { at - now, reason, held, members, epoch, refilled }
`);

/** KEYS: pause. ARGV: ms (> 0). Sets the pause's end to now + ms unless a later one is set. */
export const PAUSE = new LuaScript(`${PRELUDE}
local ms = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]))
if not current or current < now + ms then redis.call('SET', KEYS[1], int(now + ms), 'PX', int(ms)) end
`);

/**
 * KEYS: lock. ARGV: holder, lease ms. 1 when free or already the holder's (the lease restarts: how a
 * holder renews it); 0, touching nothing, when another holder has it. The token lock of `redisState`
 * and the event claim of `redisDedupStore` (holder: the delivery's token).
 */
export const LOCK = new LuaScript(`
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** KEYS: lock. ARGV: holder. Frees the lock (or a webhook claim) if the holder still has it. */
const UNLOCK_SOURCE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end`;
export const UNLOCK = new LuaScript(UNLOCK_SOURCE);

/**
 * KEYS: a webhook event's key (redisDedupStore). Frees whatever claim it holds, never `done`: a
 * release without a token, as `DEL` of the claim key was before events had one key.
 */
export const UNCLAIM = new LuaScript(
  `if redis.call('GET', KEYS[1]) ~= 'done' then redis.call('DEL', KEYS[1]) end`,
);

/**
 * KEYS: lock, token. ARGV: holder, JSON value, ms until it expires (<= 0: already expired, dropped).
 * Stores the token and frees the lock if the holder still has it.
 */
export const WRITE = new LuaScript(`
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
else redis.call('DEL', KEYS[2]) end
${UNLOCK_SOURCE}
`);

/** KEYS: token. ARGV: access token. Deletes the token only if it is still that one. */
export const DROP = new LuaScript(`
local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local ok, token = pcall(cjson.decode, value)
if ok and type(token) == 'table' and token.accessToken == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`);
