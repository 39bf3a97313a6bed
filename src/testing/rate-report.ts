import type { RateUsage } from './rate-limit.js';

/**
 * The rate report as the CLI and `GET /_console/rate` give it: `sandbox.rateReport()` with each API
 * key named `apiKeys[i]` (a key is a secret, even a sandbox one; the console never shows one).
 */
export function publicRateReport(report: readonly RateUsage[]): RateUsage[] {
  let keys = 0;
  return report.map((usage) => (usage.version === 'v1' ? { ...usage, id: `apiKeys[${keys++}]` } : usage));
}

/** `pro (500/min)`, `600/min`: how a plan is shown beside its limit. */
export const planLabel = ({ plan, limit }: Pick<RateUsage, 'plan' | 'limit'>): string =>
  typeof plan === 'string' ? `${plan} (${limit}/min)` : `${limit}/min`;

/** The `rate` command's answer: one line per budget, applications first. */
export function rateLines(report: readonly RateUsage[]): string {
  return publicRateReport(report)
    .map((u) => {
      const tokens =
        u.version === 'v2' ? `, ${u.tokensIssued} token${u.tokensIssued === 1 ? '' : 's'} issued` : '';
      return `${u.version} ${u.id}: plan ${planLabel(u)}, ${u.counted} counted, ${u.rejected} answered 429, largest 60 s window ${u.maxInWindow} of ${u.limit}${tokens}`;
    })
    .join('\n');
}
