import { type Principal, RATE_PER_MINUTE } from './credentials.js';
import { SandboxError } from './http.js';

const WINDOW_MS = 60_000;

/** A sliding one-minute window per principal, sized by its plan (SPEC.md, Limits). */
export class RateLimiter {
  readonly #hits = new Map<string, number[]>();

  /** Counts one request, or throws 429 with Retry-After when the minute is full. */
  take(principal: Principal, now: number): void {
    const recent = (this.#hits.get(principal.id) ?? []).filter((at) => at > now - WINDOW_MS);
    this.#hits.set(principal.id, recent);
    const limit = RATE_PER_MINUTE[principal.plan];
    const oldest = recent[0];
    if (recent.length >= limit && oldest !== undefined) {
      const seconds = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
      throw new SandboxError(
        429,
        'rate_limit_exceeded',
        `Rate limit of ${limit} requests per minute exceeded. Retry in ${seconds} seconds.`,
        { 'retry-after': String(seconds) },
      );
    }
    recent.push(now);
  }
}
