/** What the smoke script (smoke.mjs) is given and what it reports, per check. */
export interface SmokeConfig {
  /** Absolute path of the built package's dist/ folder. */
  dist: string;
  /** The service (sandbox or stand-in) on 127.0.0.1; v2 and v1 on the same origin. */
  baseUrl: string;
  credentials: { clientId: string; clientSecret: string; apiKey: string; accessToken: string };
}

export interface SmokeResult {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  detail: string;
}
