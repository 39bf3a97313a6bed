/**
 * The service the runtime matrix talks to: a fresh sandbox from the built `telephony-sdk/testing`
 * per runtime (so one runtime's calls and rate-limit budget never leak into the next), served on
 * 127.0.0.1 with `cors: true` for the browser page on another origin.
 */
import type { createSandbox } from '../../src/testing/index.js';
import type { SmokeConfig } from './types.js';

export interface Service {
  baseUrl: string;
  credentials: SmokeConfig['credentials'];
  close(): Promise<void>;
}

/** A browser-safe access token for the page, obtained the way a backend would hand one out. */
async function accessTokenFor(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v2/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sandbox token request answered ${res.status}`);
  return body.access_token;
}

export async function startService(dist: string): Promise<Service> {
  const testing = (await import(`${dist}/testing.cjs`)) as { createSandbox: typeof createSandbox };
  const sandbox = testing.createSandbox();
  const server = await sandbox.listen({ port: 0, cors: true });
  const { clientId, clientSecret, apiKey } = sandbox.credentials;
  const accessToken = await accessTokenFor(server.url, clientId, clientSecret);
  return {
    baseUrl: server.url,
    credentials: { clientId, clientSecret, apiKey, accessToken },
    close: async () => {
      await server.close();
      sandbox.close();
    },
  };
}
