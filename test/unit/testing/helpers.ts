import { createSandbox, type Sandbox, type SandboxOptions } from 'telephony-sdk/testing';

export const BASE = 'http://sandbox.test';

/** A sandbox and raw-request helpers that know nothing of the SDK. */
export function rawSandbox(options: SandboxOptions = {}) {
  const sandbox = createSandbox(options);
  const tokenFor = async (form: Record<string, string> = {}) => {
    const response = await sandbox.fetch(
      new Request(`${BASE}/v2/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: sandbox.credentials.clientId,
          client_secret: sandbox.credentials.clientSecret,
          ...form,
        }),
      }),
    );
    return (await response.json()) as { access_token: string; scope: string; expires_in: number };
  };
  return { sandbox, tokenFor, ...requests(sandbox) };
}

function requests(sandbox: Sandbox) {
  const send = async (method: string, path: string, bearer: string, body?: unknown) => {
    const response = await sandbox.fetch(
      new Request(`${BASE}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    // biome-ignore lint/suspicious/noExplicitAny: raw wire bodies are inspected field by field.
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  return { send };
}

/** Registers a webhook through the API (POST /v2/webhooks, as an app does); answers its id. */
export async function registerWebhook(
  sandbox: Sandbox,
  webhook: { url: string; events: string[]; secret?: string },
) {
  const { clientId, clientSecret } = sandbox.credentials;
  const form = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
  const token = await sandbox.fetch(`${BASE}/v2/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams(form),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const answer = await sandbox.fetch(`${BASE}/v2/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify(webhook),
  });
  return ((await answer.json()) as { data: { webhook: { id: string } } }).data.webhook.id;
}
