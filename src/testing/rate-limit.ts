import type { Principal, SandboxApiKey, SandboxClient } from './credentials.js';
import type { ApiVersion } from './http.js';
import { SandboxError } from './http.js';
import { requestsPerMinute, type SandboxPlan } from './plans.js';

const WINDOW_MS = 60_000;

/**
 * How one rate budget has been used since the sandbox was created, as `sandbox.rateReport()`
 * gives it. Windows are measured in sandbox time.
 */
export interface RateUsage {
  /** `'v2'`: an OAuth application, all its tokens together; `'v1'`: one API key. */
  version: 'v1' | 'v2';
  /** The application's client id (v2) or the API key (v1). */
  id: string;
  /** The plan as configured (default `'starter'`). */
  plan: SandboxPlan;
  /** Requests allowed in any 60-second window: SPEC.md's figure for a named plan, or `requestsPerMinute`. */
  limit: number;
  /** Requests counted against the budget: every authenticated request not answered 401 or 429. */
  counted: number;
  /** Requests answered 429 `rate_limit_exceeded` (not counted). */
  rejected: number;
  /**
   * The largest number of counted requests in any 60-second window, sliding and exact (from each
   * request's time, no buckets). The sandbox refuses what would exceed `limit`, so this is at most
   * `limit`; it shows how close the callers came.
   */
  maxInWindow: number;
  /** Access tokens issued to the application (`POST /v2/oauth/token` answered 200); not counted. 0 for v1. */
  tokensIssued: number;
}

/** One principal's sliding window and counters. */
class Budget {
  counted = 0;
  rejected = 0;
  maxInWindow = 0;
  tokensIssued = 0;
  /** Times of the counted requests still in the window, oldest first, from `#head` on. */
  #times: number[] = [];
  #head = 0;
  #last = Number.NEGATIVE_INFINITY;

  constructor(
    readonly version: ApiVersion,
    readonly id: string,
    readonly plan: SandboxPlan,
    readonly limit: number,
  ) {}

  /** Counts a request made at `now`, or answers the whole seconds until a slot frees. */
  take(now: number): number | undefined {
    // Sandbox time never goes back, except a real-time clock following a wall clock that is set
    // back: the window stays ordered by counting such a request at the latest time seen.
    const at = Math.max(now, this.#last);
    this.#leave(at);
    const inWindow = this.#times.length - this.#head;
    const oldest = this.#times[this.#head];
    if (inWindow >= this.limit && oldest !== undefined) {
      this.rejected++;
      return Math.max(1, Math.ceil((oldest + WINDOW_MS - at) / 1000));
    }
    this.#times.push(at);
    this.#last = at;
    this.counted++;
    // Every window's count is at most that of the window ending at its last request, so the
    // largest window is the largest count seen right after counting a request: exact, and the
    // memory is about one window (`limit` times at most, plus what #leave has yet to compact).
    this.maxInWindow = Math.max(this.maxInWindow, inWindow + 1);
    return undefined;
  }

  /** Requests counted in the 60 s window ending at `now`: the budget used this minute. */
  usedAt(now: number): number {
    this.#leave(Math.max(now, this.#last));
    return this.#times.length - this.#head;
  }

  /** Drops the requests of 60 s or more ago: the window is (now - 60 s, now]. */
  #leave(now: number): void {
    const edge = now - WINDOW_MS;
    while ((this.#times[this.#head] ?? Number.POSITIVE_INFINITY) <= edge) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }

  usage(): RateUsage {
    const { version, id, limit, counted, rejected, maxInWindow, tokensIssued } = this;
    const plan = typeof this.plan === 'string' ? this.plan : { requestsPerMinute: limit };
    return { version, id, plan, limit, counted, rejected, maxInWindow, tokensIssued };
  }
}

/**
 * One sliding 60-second window per principal (SPEC.md, Limits): an OAuth application on v2 (every
 * token it was issued) and each API key on v1, sized by its plan.
 */
export class RateLimiter {
  readonly #budgets: Record<ApiVersion, Map<string, Budget>> = { v1: new Map(), v2: new Map() };

  /** One budget per client and per key. Checks every plan now: a bad one fails `createSandbox`. */
  constructor(clients: readonly SandboxClient[], apiKeys: readonly SandboxApiKey[]) {
    for (const { clientId, plan } of clients) {
      const limit = requestsPerMinute(plan, `client ${JSON.stringify(clientId)}`);
      this.#budgets.v2.set(clientId, new Budget('v2', clientId, plan ?? 'starter', limit));
    }
    for (const [index, { key, plan }] of apiKeys.entries()) {
      // Named by position: an API key is a secret, even a sandbox one.
      const limit = requestsPerMinute(plan, `apiKeys[${index}]`);
      this.#budgets.v1.set(key, new Budget('v1', key, plan ?? 'starter', limit));
    }
  }

  /** Counts one request, or throws 429 with Retry-After (whole seconds) when the window is full. */
  take(principal: Principal, now: number): void {
    const budget = this.#budget(principal.version, principal.id);
    const seconds = budget.take(now);
    if (seconds === undefined) return;
    throw new SandboxError(
      429,
      'rate_limit_exceeded',
      `Rate limit of ${budget.limit} requests per minute exceeded. Retry in ${seconds} seconds.`,
      { 'retry-after': String(seconds) },
    );
  }

  /** Notes a token issued to `clientId`; the token endpoint is not rate limited. */
  tokenIssued(clientId: string): void {
    this.#budget('v2', clientId).tokensIssued++;
  }

  /** The principal's plan and limit, and the requests counted in the window ending at `now`. */
  windowOf(principal: Principal, now: number): { plan: SandboxPlan; limit: number; used: number } {
    const budget = this.#budget(principal.version, principal.id);
    return { plan: budget.plan, limit: budget.limit, used: budget.usedAt(now) };
  }

  /** Every configured budget, applications (v2) first, each in configuration order. */
  report(): RateUsage[] {
    return [...this.#budgets.v2.values(), ...this.#budgets.v1.values()].map((budget) => budget.usage());
  }

  #budget(version: ApiVersion, id: string): Budget {
    const budget = this.#budgets[version].get(id);
    // Credentials accept only configured clients and keys, and each has a budget.
    if (!budget) throw new SandboxError(500, 'server_error', 'Internal sandbox error');
    return budget;
  }
}
