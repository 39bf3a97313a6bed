import { HttpResponse, http } from 'msw';
import { type APIError, TelephonyClient } from 'telephony-sdk';
import type { ClientOptions } from '../../src/core/options.js';
import { CANARY } from './canary.js';
import { fakeClock } from './clock.js';
import { suiteLogger } from './secret-scan.js';

export const BASE = 'https://api.test';
export const BASE_V1 = 'https://legacy.test';

export { CANARY, SECRETS } from './canary.js';

/** A client on BASE/BASE_V1 with canary credentials, a fake clock, no real waits, and debug logs that are scanned for secrets. */
export function testClient(overrides: ClientOptions = {}): TelephonyClient {
  return new TelephonyClient({
    baseUrl: BASE,
    baseUrlV1: BASE_V1,
    clientId: CANARY.clientId,
    clientSecret: CANARY.clientSecret,
    apiKey: CANARY.apiKey,
    clock: fakeClock(),
    // Every line is scanned for the canaries after each test (log-scan.setup.ts).
    logger: suiteLogger,
    logLevel: 'debug',
    ...overrides,
  });
}

/** Counts token requests made through `tokenHandler`. */
export interface TokenHandlerOptions {
  accessToken?: string;
  expiresIn?: number;
  scope?: string;
  /** Called with each token request's form body. */
  onRequest?: (form: URLSearchParams) => void;
}

/** msw handler answering POST /v2/oauth/token with a canary access token (each call: one token request). */
export function tokenHandler(options: TokenHandlerOptions = {}) {
  return http.post(`${BASE}/v2/oauth/token`, async ({ request }) => {
    options.onRequest?.(new URLSearchParams(await request.text()));
    return HttpResponse.json({
      access_token: options.accessToken ?? CANARY.accessToken,
      token_type: 'Bearer',
      expires_in: options.expiresIn ?? 3600,
      scope: options.scope ?? 'calls:read calls:write',
    });
  });
}

/** The error `promise` rejects with, typed as an APIError for field access (assert its class separately). */
export async function rejection(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    return error as APIError;
  }
  throw new Error('expected a rejection');
}
