/** Row 6: 1 000 concurrent calls on a cold token cache → token requests sent (goal: exactly 1). */
import { goal, type RowResult } from '../report.js';
import type { SdkModule } from '../sdk.js';
import { startBenchServer } from '../server.js';

const CALLERS = 1000;

export async function tokenRow(sdk: SdkModule | undefined): Promise<RowResult> {
  if (!sdk) {
    return {
      row: `6. ${CALLERS} concurrent calls on a cold token cache`,
      command: 'npm run bench -- token',
      table: [['contender', 'token requests', 'data requests']],
      goals: [goal('exactly 1 token request', null, 'telephony-sdk not built yet')],
      notes: ['peer for comparison (issue 5): Twilio sends one token request per caller'],
    };
  }
  // The token endpoint answers after 50 ms so every caller arrives while the cache is cold.
  const server = await startBenchServer({ totalCalls: 1, tokenDelayMs: 50 });
  try {
    const client = new sdk.TelephonyClient({
      baseUrl: server.url,
      clientId: 'bench-client',
      clientSecret: 'bench-secret',
      maxRetries: 0,
    });
    const results = await Promise.allSettled(
      Array.from({ length: CALLERS }, () => client.calls.listRecent({ limit: 1 })),
    );
    const failed = results.filter((r) => r.status === 'rejected').length;
    return {
      row: `6. ${CALLERS} concurrent calls on a cold token cache`,
      command: 'npm run bench -- token',
      table: [
        ['contender', 'token requests', 'data requests', 'failed calls'],
        [
          'telephony-sdk (client credentials)',
          String(server.counts.token),
          String(server.counts.recent),
          String(failed),
        ],
      ],
      goals: [
        goal(
          'exactly 1 token request',
          server.counts.token === 1 && failed === 0,
          `${server.counts.token} token request(s), ${failed} failed calls`,
        ),
      ],
      notes: ['peer for comparison (issue 5): Twilio sends one token request per caller'],
    };
  } finally {
    await server.close();
  }
}
