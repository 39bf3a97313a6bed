import type { RateBudget } from './shared-state.js';

/** The `rateLimit` option: a plan by name, a rate, or `false` (no pacing, the default). */
export type RateLimit =
  | 'starter'
  | 'pro'
  | 'enterprise'
  | {
      /** Requests allowed in any 60-second window (a whole number ≥ 1). */
      requestsPerMinute: number;
    }
  | false;

/** Plans of SPEC.md, Limits: requests per minute per account. */
export const PLANS: Record<Exclude<RateLimit, false | object>, number> = {
  starter: 100,
  pro: 500,
  enterprise: 2000,
};

const WINDOW_MS = 60_000;
// The service counts a request when it arrives, the client when it sends: a 1 s longer window keeps
// two requests a whole client window apart also a whole service window apart when the network delays
// the first one (by up to a second).
export const SAFETY_MS = 1_000;
/** The budget of `rateLimit`, or `undefined` without pacing. */
export function budgetOf(rateLimit: RateLimit | undefined): RateBudget | undefined {
  if (rateLimit === undefined || rateLimit === false) return undefined;
  const limit = typeof rateLimit === 'string' ? PLANS[rateLimit] : rateLimit.requestsPerMinute;
  return { limit, windowMs: WINDOW_MS + SAFETY_MS };
}
