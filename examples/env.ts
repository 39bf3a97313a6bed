import { TelephonyClient } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';

/**
 * A client from TELEPHONY_* environment variables (the sandbox CLI prints ready values). Without
 * TELEPHONY_BASE_URL the examples run against an in-process sandbox (no socket, nothing left open),
 * seeded with two incoming calls so that lists have something to show. Its clock starts at the wall
 * clock, so date ranges built from `new Date()` (stats for the last 7 days) include those calls.
 */
export async function clientFromEnv(): Promise<TelephonyClient> {
  const env = process.env;
  if (!env.TELEPHONY_BASE_URL) {
    const sandbox = createSandbox({ clock: { start: Date.now() } });
    sandbox.answerCall(sandbox.simulateIncomingCall({ from: '+15557654321', fromName: 'Grace' }).id);
    sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15559876543' }).id);
    await sandbox.idle();
    const url = 'http://sandbox.invalid';
    return new TelephonyClient({
      baseUrl: url,
      baseUrlV1: url,
      ...sandbox.credentials,
      fetch: sandbox.fetch,
    });
  }
  return new TelephonyClient({
    baseUrl: env.TELEPHONY_BASE_URL,
    baseUrlV1: env.TELEPHONY_BASE_URL_V1 ?? env.TELEPHONY_BASE_URL,
    ...(env.TELEPHONY_CLIENT_ID ? { clientId: env.TELEPHONY_CLIENT_ID } : {}),
    ...(env.TELEPHONY_CLIENT_SECRET ? { clientSecret: env.TELEPHONY_CLIENT_SECRET } : {}),
    ...(env.TELEPHONY_API_KEY ? { apiKey: env.TELEPHONY_API_KEY } : {}),
  });
}
