/** Plans of SPEC.md's Limits table. */
export type Plan = 'starter' | 'pro' | 'enterprise';

/**
 * The plan of an application or API key: a named plan at SPEC.md's rate, or any number of requests
 * per minute (the window stays 60 s of sandbox time), so a test can run a plan fast and stay short.
 * The same shape as the client's `rateLimit` option, so one value can be passed to both.
 */
export type SandboxPlan =
  | Plan
  | {
      /** Requests allowed in any 60 s window of sandbox time (a whole number ≥ 1). */
      requestsPerMinute: number;
    };

/** Requests per minute per plan (SPEC.md, Limits). */
const RATE_PER_MINUTE: Record<Plan, number> = { starter: 100, pro: 500, enterprise: 2000 };

/**
 * The requests per minute of `plan` (default starter). An unknown plan name or a rate that is not a
 * positive whole number throws, naming `owner` (a client id or `apiKeys[i]`, never a key), so a typo
 * cannot leave a credential unlimited.
 */
export function requestsPerMinute(plan: SandboxPlan | undefined, owner: string): number {
  if (plan === undefined) return RATE_PER_MINUTE.starter;
  if (typeof plan === 'string') {
    if (Object.hasOwn(RATE_PER_MINUTE, plan)) return RATE_PER_MINUTE[plan];
    throw new TypeError(
      `Unknown plan for ${owner}: use 'starter', 'pro', 'enterprise' or { requestsPerMinute }`,
    );
  }
  const rate = plan?.requestsPerMinute;
  if (typeof rate === 'number' && Number.isSafeInteger(rate) && rate > 0) return rate;
  throw new RangeError(`plan.requestsPerMinute of ${owner} must be a positive whole number`);
}
