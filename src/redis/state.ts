import type { FailSafeState } from '../core/pacing/fail-safe-state.js';
import type { RateBudget, Reservation, SharedState, SharedToken } from '../core/pacing/shared-state.js';
import { type RedisConnection, type Send, sendOver } from './connection.js';
import { FleetShare } from './fleet-share.js';
import { accountKey, checkPrefix, DEFAULT_PREFIX } from './keys.js';
import { DROP, LOCK, PAUSE, RESERVE, UNLOCK, WRITE } from './scripts.js';

/** How often a process tells a scope's member set it is alive; the set forgets it after 15 s. */
const BEAT_MS = 5_000;

/** Options of {@link redisState} and {@link redisDedupStore}. */
export interface RedisStoreOptions {
  /** Prepended to every key; no `{` or `}`. Default `'telephony:'`. */
  prefix?: string;
}

/**
 * A {@link SharedState} in Redis 7 or Valkey (Redis Cluster too), shared by every client and process
 * that uses the same server and prefix: one rate budget per account, its 429 pauses, and one OAuth
 * token with one token request in flight. Each method is one round trip (a Lua script where it
 * reads and writes, sent by digest with `EVALSHA`; `EVAL` once on a server that lacks it), so
 * concurrent clients never interleave.
 *
 * Pacing, pauses and the lock's lease use the Redis server's clock (`TIME` in the scripts, `PX`),
 * the one clock every process agrees on: the `now` that `reserve`, `pause` and `lockToken` receive
 * is not used, so a process whose clock is off cannot let more than the budget through. (Not even
 * as a fallback: Redis 5 and later and Valkey allow `TIME` in a script, and a server that refused it
 * should fail loudly — the client then uses its local state and emits `'shared_state_error'` —
 * rather than pace on clocks that disagree.) Token expiry is read against the caller's `now`, and
 * a token's key expires after its own lifetime (`expiresAt - obtainedAt`).
 *
 * Keys: the client's keys have the form `<account>:<rest>` and hold no secret and no token; each is
 * stored as `<prefix>{<account>}:<rest>:<kind>`, so that all keys of one account share a Redis
 * Cluster hash tag. With the default prefix:
 *
 * | Key                                      | Value                                         | Expires                     |
 * | ---------------------------------------- | --------------------------------------------- | --------------------------- |
 * | `telephony:{<account>}:v2:window`        | sorted set of reserved send times (ms)        | a window after the last one |
 * | `telephony:{<account>}:v2:pause`         | end of a 429's pause (ms, Redis clock)        | when the pause ends         |
 * | `telephony:{<account>}:token:<id>:token` | JSON `{ accessToken, expiresAt, obtainedAt }` | when the token expires      |
 * | `telephony:{<account>}:token:<id>:lock`  | holder of the right to request a token        | when the lease ends         |
 *
 * (`v1` paths have their own `:v1:window` and `:v1:pause`.) The token's value holds the access
 * token, readable by anyone who can read the server: give the clients a Redis ACL user limited to
 * the prefix (`~telephony:*`), use TLS (`rediss://`) unless the server is on the same host, and never
 * expose the server publicly.
 *
 * @param client a connected node-redis (`createClient`, `createCluster`) or ioredis (`Redis`,
 *   `Cluster`) client; the caller keeps it and closes it.
 */
export function redisState(client: RedisConnection, options: RedisStoreOptions = {}): SharedState {
  return new RedisState(sendOver(client), checkPrefix(options.prefix ?? DEFAULT_PREFIX));
}

class RedisState implements SharedState {
  readonly #send: Send;
  readonly #prefix: string;
  /** Sorted-set members must be unique: two reservations at the same time are two slots. */
  readonly #id = crypto.randomUUID();
  #sequence = 0;
  /** When this process last told each scope's member set it is alive (Date.now(): only a rate limit). */
  readonly #beats = new Map<string, number>();

  constructor(send: Send, prefix: string) {
    this.#send = send;
    this.#prefix = prefix;
  }

  async reserve(scope: string, budget: RateBudget | undefined): Promise<Reservation> {
    const prefix = this.#prefix;
    const keys = [
      accountKey(prefix, scope, 'window'),
      accountKey(prefix, scope, 'pause'),
      accountKey(prefix, scope, 'members'),
      accountKey(prefix, scope, 'epoch'),
      accountKey(prefix, scope, 'refill'),
    ];
    let args = ['', '', '', '', '', ''];
    // The window's member this reservation takes (none without a budget): its slot, to give back.
    let slot: string | undefined;
    if (budget !== undefined) {
      if (!Number.isInteger(budget.limit) || budget.limit < 1 || !(budget.windowMs > 0)) {
        throw new TypeError(`telephony-sdk/redis: invalid rate budget ${JSON.stringify(budget)}`);
      }
      slot = `${this.#id}:${(++this.#sequence).toString(36)}`;
      const { maxWaitMs, minWaitMs, seed, release, epoch, refill } = budget;
      // Every 5 s at most: enough for the member set (15 s) to count the live processes. A write-back
      // always says so: after a restart the member set is rebuilt with the window.
      const now = Date.now();
      const beat = seed !== undefined || now - (this.#beats.get(scope) ?? 0) >= BEAT_MS;
      if (beat) this.#beats.set(scope, now);
      args = [
        String(budget.limit),
        String(Math.ceil(budget.windowMs)),
        slot,
        maxWaitMs === undefined ? '' : String(Math.floor(maxWaitMs)),
        minWaitMs === undefined || !(minWaitMs > 0) ? '' : String(Math.ceil(minWaitMs)),
        beat ? this.#id : '',
        release?.join(' ') ?? '',
        epoch ?? '',
        seed === undefined ? '' : this.#id,
        refill === undefined ? '' : String(refill),
      ];
      if (seed !== undefined)
        for (const age of seed) if (Number.isFinite(age)) args.push(String(Math.round(age)));
    }
    const [waitMs, reason, held, members, epoch, refilled] = (await RESERVE.run(
      this.#send,
      keys,
      args,
    )) as unknown[];
    const retry = reason === 'lost' || reason === 'refilling' ? reason : undefined;
    return {
      slot: retry === undefined ? slot : undefined,
      waitMs: Number(waitMs),
      reason:
        reason === 'paused' || reason === 'pacing' ? reason : retry === undefined ? undefined : 'pacing',
      held: Number(held),
      members: Number(members),
      epoch: typeof epoch === 'string' && epoch !== '' ? epoch : undefined,
      retry,
      refilled: Number(refilled),
    };
  }

  async pause(scope: string, ms: number): Promise<void> {
    const key = accountKey(this.#prefix, scope, 'pause');
    if (ms > 0) await PAUSE.run(this.#send, [key], [String(Math.ceil(ms))]);
  }

  async readToken(key: string, now: number): Promise<SharedToken | undefined> {
    const redisKey = accountKey(this.#prefix, key, 'token');
    const value = await this.#send(['GET', redisKey], redisKey);
    const token = typeof value === 'string' ? parseToken(value) : undefined;
    return token !== undefined && token.expiresAt > now ? token : undefined;
  }

  async lockToken(key: string, holder: string, leaseMs: number): Promise<boolean> {
    const lock = accountKey(this.#prefix, key, 'lock');
    const lease = String(Math.max(1, Math.ceil(leaseMs)));
    return Number(await LOCK.run(this.#send, [lock], [holder, lease])) === 1;
  }

  async writeToken(key: string, token: SharedToken, holder: string): Promise<void> {
    const keys = [accountKey(this.#prefix, key, 'lock'), accountKey(this.#prefix, key, 'token')];
    const { accessToken, expiresAt, obtainedAt } = token;
    const value = JSON.stringify({ accessToken, expiresAt, obtainedAt });
    // Its lifetime, from the token's own two times: writeToken has no `now`, and the client's clock
    // may not be this process's Date.now(). readToken still checks expiresAt against the reader's now.
    const ttl = Math.ceil(expiresAt - obtainedAt);
    await WRITE.run(this.#send, keys, [holder, value, String(Number.isFinite(ttl) ? ttl : 0)]);
  }

  async unlockToken(key: string, holder: string): Promise<void> {
    await UNLOCK.run(this.#send, [accountKey(this.#prefix, key, 'lock')], [holder]);
  }

  async dropToken(key: string, accessToken: string): Promise<void> {
    await DROP.run(this.#send, [accountKey(this.#prefix, key, 'token')], [accessToken]);
  }

  /** A server or a network can fail, and a restart lose the windows: each client paces to its share then. */
  fleetBudget(failSafe: FailSafeState): FleetShare {
    return new FleetShare(failSafe);
  }
}

/** A stored value, or undefined when it is not a token (another writer's, corrupted): a new one replaces it. */
function parseToken(value: string): SharedToken | undefined {
  try {
    const { accessToken, expiresAt, obtainedAt } = JSON.parse(value) as Partial<SharedToken>;
    if (typeof accessToken === 'string' && typeof expiresAt === 'number' && typeof obtainedAt === 'number') {
      return { accessToken, expiresAt, obtainedAt };
    }
  } catch {}
  return undefined;
}
