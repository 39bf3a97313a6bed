// Kept apart from client.ts, which imports the SDK: the suite's setup file (log-scan.setup.ts) needs
// these before any test has set up its own module mocks.

/** Distinctive credentials: no error, event or inspection may ever contain them. */
export const CANARY = {
  clientId: 'client_CANARY_ID',
  clientSecret: 'sk_CANARY_SECRET_9f3a1c',
  apiKey: 'ak_CANARY_KEY_77b2e0',
  accessToken: 'at_CANARY_TOKEN_5d41e8',
} as const;

/** Every secret value of CANARY (clientId is not a secret). */
export const SECRETS = [CANARY.clientSecret, CANARY.apiKey, CANARY.accessToken] as const;
