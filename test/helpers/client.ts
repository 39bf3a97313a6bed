import { HttpResponse, http } from 'msw';
import { type APIError, TelephonyClient } from 'telephony-sdk';
import type { ClientOptions } from '../../src/core/options.js';
import { fakeClock } from './clock.js';

export const BASE = 'https://api.test';
export const BASE_V1 = 'https://legacy.test';

/** Distinctive credentials: no error, event or inspection may ever contain them. */
export const CANARY = {
  clientId: 'client_CANARY_ID',
  clientSecret: 'sk_CANARY_SECRET_9f3a1c',
  apiKey: 'ak_CANARY_KEY_77b2e0',
  accessToken: 'at_CANARY_TOKEN_5d41e8',
} as const;

/** Every secret value of CANARY (clientId is not a secret). */
export const SECRETS = [CANARY.clientSecret, CANARY.apiKey, CANARY.accessToken] as const;

/** A client on BASE/BASE_V1 with canary credentials, a fake clock, and no real waits. */
export function testClient(overrides: ClientOptions = {}): TelephonyClient {
  return new TelephonyClient({
    baseUrl: BASE,
    baseUrlV1: BASE_V1,
    clientId: CANARY.clientId,
    clientSecret: CANARY.clientSecret,
    apiKey: CANARY.apiKey,
    clock: fakeClock(),
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
