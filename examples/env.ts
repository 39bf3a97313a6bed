/**
 * How the examples find the service. Every file runs the same way, `npx tsx examples/<file>.ts`:
 *
 * - With no TELEPHONY_BASE_URL (the default) it runs against a sandbox started in its own process
 *   (the client reaches it without a socket; nothing is left open), seeded with two incoming calls
 *   so that lists have something to show. Its clock starts at the wall clock and moves only when
 *   an example says, so date ranges built from `new Date()` include those calls and a
 *   `WebhookReceiver` accepts the times it signs.
 * - With TELEPHONY_BASE_URL set it runs against that service: the real one, or a sandbox started
 *   with `npx telephony-sandbox` (it prints the lines to export). TELEPHONY_BASE_URL_V1 (default
 *   the same), TELEPHONY_CLIENT_ID, TELEPHONY_CLIENT_SECRET and TELEPHONY_API_KEY go with it.
 *
 * The webhook examples sign and verify with one secret, {@link webhookSecret}.
 */
import { TelephonyClient } from 'telephony-sdk';
import { createSandbox, type Sandbox, type SandboxOptions } from 'telephony-sdk/testing';

const env = process.env;

/**
 * The secret webhooks-register.ts registers and the receivers verify with: TELEPHONY_WEBHOOK_SECRET
 * (set the same value for each of them), else this shared example value.
 */
export const webhookSecret = env.TELEPHONY_WEBHOOK_SECRET || 'whsec_examples_shared_secret';

/** True when no TELEPHONY_BASE_URL is set: the examples start their own sandbox. */
export const inProcess = !env.TELEPHONY_BASE_URL;

/** A sandbox in this process, seeded with an answered and a missed incoming call, and a client of it. */
export async function inProcessSandbox(
  options: SandboxOptions = {},
): Promise<{ sandbox: Sandbox; client: TelephonyClient }> {
  const sandbox = createSandbox({ clock: { start: Date.now() }, ...options });
  sandbox.answerCall(sandbox.simulateIncomingCall({ from: '+15557654321', fromName: 'Grace' }).id);
  sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15559876543' }).id);
  await sandbox.idle();
  const url = 'http://sandbox.invalid'; // never resolved: sandbox.fetch answers in-process
  const client = new TelephonyClient({
    baseUrl: url,
    baseUrlV1: url,
    ...sandbox.credentials,
    fetch: sandbox.fetch,
    clock: sandbox.clientClock,
  });
  return { sandbox, client };
}

/** A client of the service TELEPHONY_* names, else of an {@link inProcessSandbox}. */
export async function clientFromEnv(): Promise<TelephonyClient> {
  if (inProcess) return (await inProcessSandbox()).client;
  return new TelephonyClient({
    baseUrl: env.TELEPHONY_BASE_URL,
    baseUrlV1: env.TELEPHONY_BASE_URL_V1 ?? env.TELEPHONY_BASE_URL,
    ...(env.TELEPHONY_CLIENT_ID ? { clientId: env.TELEPHONY_CLIENT_ID } : {}),
    ...(env.TELEPHONY_CLIENT_SECRET ? { clientSecret: env.TELEPHONY_CLIENT_SECRET } : {}),
    ...(env.TELEPHONY_API_KEY ? { apiKey: env.TELEPHONY_API_KEY } : {}),
  });
}
