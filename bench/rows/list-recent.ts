/** The contenders of rows 1 and 2: every client asking for GET /v2/calls/recent?limit=100, the floor first. */
import type { Contender } from '../harness.js';
import { BENCH_TOKEN, recentCallsContenders } from '../peers.js';
import type { SdkModule } from '../sdk.js';

export function listRecentContenders(
  sdk: SdkModule | undefined,
  baseUrl: string,
  floorName: string,
  fetchImpl?: typeof fetch,
  baseline?: SdkModule,
): Contender[] {
  const peers = recentCallsContenders(baseUrl, fetchImpl);
  const contenders: Contender[] = [
    { name: floorName, run: peers.floor },
    { name: 'openai-node client.get', run: peers.openai },
    { name: 'ky alone', run: peers.ky },
    { name: 'ky + zod (classic, loose)', run: peers.kyZod },
    { name: 'fetch + per-attempt signal and timer', run: peers.floorWithTimeout },
    { name: "ky with the SDK's options", run: peers.kySdkOptions },
  ];
  const options = { baseUrl, accessToken: BENCH_TOKEN, ...(fetchImpl ? { fetch: fetchImpl } : {}) };
  if (baseline) {
    const client = new baseline.TelephonyClient(options);
    contenders.push({
      name: 'baseline build calls.listRecent',
      run: () => client.calls.listRecent({ limit: 100 }),
    });
  }
  if (sdk) {
    const client = new sdk.TelephonyClient(options);
    contenders.push({
      name: 'telephony-sdk calls.listRecent',
      run: () => client.calls.listRecent({ limit: 100 }),
    });
  }
  return contenders;
}
