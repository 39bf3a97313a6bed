import { TelephonyClient } from 'telephony-sdk';

/** A client from TELEPHONY_* environment variables (the sandbox CLI prints ready values). */
export function clientFromEnv(): TelephonyClient {
  const env = process.env;
  return new TelephonyClient({
    baseUrl: env.TELEPHONY_BASE_URL ?? 'http://127.0.0.1:4010',
    baseUrlV1: env.TELEPHONY_BASE_URL_V1 ?? env.TELEPHONY_BASE_URL ?? 'http://127.0.0.1:4010',
    ...(env.TELEPHONY_CLIENT_ID ? { clientId: env.TELEPHONY_CLIENT_ID } : {}),
    ...(env.TELEPHONY_CLIENT_SECRET ? { clientSecret: env.TELEPHONY_CLIENT_SECRET } : {}),
    ...(env.TELEPHONY_API_KEY ? { apiKey: env.TELEPHONY_API_KEY } : {}),
  });
}
