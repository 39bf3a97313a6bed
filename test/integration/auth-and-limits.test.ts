import { AuthenticationError, PermissionDeniedError, RateLimitError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { serveSandbox } from './helpers.js';

const recent = { method: 'GET', path: '/v2/calls/recent' } as const;

describe('auth flow over real HTTP', () => {
  it('obtains one token for many requests, and a new one after it expires on the sandbox clock', async () => {
    const { sandbox, client } = await serveSandbox();
    const sdk = client();
    const tokens: unknown[] = [];
    sdk.on('token', (event) => tokens.push(event));
    await sdk.request(recent);
    await sdk.request(recent);
    expect(tokens).toEqual([{ expires_in: 3600, scope: 'calls:read calls:write contacts:read' }]);
    await sandbox.advance(3_600_000);
    await expect(sdk.request(recent)).resolves.toMatchObject({ status: 'success' });
    expect(tokens).toHaveLength(2);
  });

  it('a wrong client secret is an AuthenticationError that does not carry the secret', async () => {
    const { client } = await serveSandbox();
    const error = await client({ clientSecret: 'CANARY_CLIENT_SECRET' })
      .request(recent)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(JSON.stringify(error) + String(error)).not.toContain('CANARY_CLIENT_SECRET');
  });

  it('a bad API key on v1 is authentication_failed with apiVersion v1', async () => {
    const { client } = await serveSandbox();
    await expect(
      client({ apiKey: 'CANARY_KEY', maxRetries: 0 }).request({ method: 'GET', path: '/v1/users' }),
    ).rejects.toMatchObject({ status: 401, code: 'authentication_failed', apiVersion: 'v1' });
  });

  it('a token without calls:write gets PermissionDeniedError 403 forbidden', async () => {
    const { client } = await serveSandbox();
    const error = await client({ scope: ['calls:read'] })
      .request({ method: 'POST', path: '/v2/calls', body: { to: '+15551234567' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden', apiVersion: 'v2' });
  });
});

describe('rate limit end to end', () => {
  it('waits out the Retry-After the sandbox sends, on the sandbox clock, then succeeds', async () => {
    const { sandbox, client, waits } = await serveSandbox();
    const sdk = client();
    for (let i = 0; i < 100; i++) await sdk.request(recent);
    await sandbox.advance(20_000);
    await expect(sdk.request(recent)).resolves.toMatchObject({ status: 'success' });
    // The window frees 60 s after the first request, 40 s after now.
    expect(waits).toEqual([40_000]);
  });

  it('a Retry-After over maxRetryAfter fails at once with RateLimitError.retryAfter', async () => {
    const { client, waits } = await serveSandbox();
    const sdk = client({ maxRetryAfter: 30 });
    for (let i = 0; i < 100; i++) await sdk.request(recent);
    const error = await sdk.request(recent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 60 });
    expect(waits).toEqual([]);
  });
});
