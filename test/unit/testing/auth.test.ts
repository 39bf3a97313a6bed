import { describe, expect, it } from 'vitest';
import { BASE, rawSandbox } from './helpers.js';

const form = (fields: Record<string, string>) =>
  new Request(`${BASE}/v2/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

describe('POST /v2/oauth/token', () => {
  it('issues a Bearer token for 3600 s with every allowed scope', async () => {
    const { sandbox } = rawSandbox();
    const response = await sandbox.fetch(
      form({
        grant_type: 'client_credentials',
        client_id: 'sandbox_client_id',
        client_secret: 'sandbox_client_secret',
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^sbx_at_[0-9a-f]{48}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'calls:read calls:write contacts:read',
    });
  });

  it('grants the requested scopes when the application may have them all', async () => {
    const { tokenFor } = rawSandbox();
    expect((await tokenFor({ scope: 'calls:read contacts:read' })).scope).toBe('calls:read contacts:read');
  });

  it.each([['client_id'], ['client_secret']])(
    'refuses a token request without %s with 400 invalid_parameter (not 401)',
    async (missing) => {
      const { sandbox } = rawSandbox();
      const fields: Record<string, string> = {
        grant_type: 'client_credentials',
        client_id: 'sandbox_client_id',
        client_secret: 'sandbox_client_secret',
      };
      delete fields[missing];
      const response = await sandbox.fetch(form(fields));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ status: 'error', code: 'invalid_parameter' });
    },
  );

  it.each([
    ['nope:read'],
    ['calls:read nope:read'],
    ['users:write'],
    ['calls:read users:write'],
    [''],
    [' '],
  ])(
    'refuses scope=%s (a scope the application may not have, or none) with 400 invalid_scope, no token',
    async (scope) => {
      const { sandbox } = rawSandbox();
      const response = await sandbox.fetch(
        form({
          grant_type: 'client_credentials',
          client_id: 'sandbox_client_id',
          client_secret: 'sandbox_client_secret',
          scope,
        }),
      );
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toMatchObject({ status: 'error', code: 'invalid_scope' });
      expect(body).not.toHaveProperty('access_token');
    },
  );

  it('refuses a JSON body with 400 invalid_parameter', async () => {
    const { sandbox } = rawSandbox();
    const response = await sandbox.fetch(
      new Request(`${BASE}/v2/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'error', code: 'invalid_parameter' });
  });

  it('refuses another grant_type with 400', async () => {
    const { sandbox } = rawSandbox();
    const response = await sandbox.fetch(
      form({
        grant_type: 'password',
        client_id: 'sandbox_client_id',
        client_secret: 'sandbox_client_secret',
      }),
    );
    expect(response.status).toBe(400);
  });

  it('answers a wrong secret with 401 unauthorized that does not echo it', async () => {
    const { sandbox } = rawSandbox();
    const response = await sandbox.fetch(
      form({
        grant_type: 'client_credentials',
        client_id: 'sandbox_client_id',
        client_secret: 'CANARY_SECRET',
      }),
    );
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ status: 'error', code: 'unauthorized', message: expect.any(String) });
    expect(text).not.toContain('CANARY_SECRET');
  });
});

describe('bearer checks', () => {
  it('v2 without a token: 401 in the v2 shape', async () => {
    const { send } = rawSandbox();
    const { status, body } = await send('GET', '/v2/calls/recent', 'nope');
    expect(status).toBe(401);
    expect(body).toEqual({ status: 'error', code: 'unauthorized', message: expect.any(String) });
  });

  it('a token expires after 3600 s of sandbox time', async () => {
    const { sandbox, tokenFor, send } = rawSandbox();
    const { access_token } = await tokenFor();
    await sandbox.advance(3_599_000);
    expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(200);
    await sandbox.advance(1_000);
    const expired = await send('GET', '/v2/calls/recent', access_token);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('unauthorized');
  });

  it('v1 with a bad key: 401 authentication_failed in the v1 shape', async () => {
    const { send } = rawSandbox();
    const { status, body } = await send('GET', '/v1/users', 'wrong_key');
    expect(status).toBe(401);
    expect(body).toEqual({
      status: 'error',
      error: { code: 'authentication_failed', message: expect.any(String), status_code: 401 },
    });
  });

  it('no Authorization header at all: 401 unauthorized (v2) and authentication_failed (v1)', async () => {
    const { sandbox } = rawSandbox();
    const v2 = await sandbox.fetch(`${BASE}/v2/calls/recent`);
    expect(v2.status).toBe(401);
    expect(await v2.json()).toEqual({ status: 'error', code: 'unauthorized', message: expect.any(String) });
    const v1 = await sandbox.fetch(`${BASE}/v1/users`);
    expect(v1.status).toBe(401);
    expect(await v1.json()).toEqual({
      status: 'error',
      error: { code: 'authentication_failed', message: expect.any(String), status_code: 401 },
    });
  });

  it('an unknown client id is 401 unauthorized', async () => {
    const { sandbox } = rawSandbox();
    const response = await sandbox.fetch(
      form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'sandbox_client_secret' }),
    );
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe('unauthorized');
  });

  it('a v2 token is not a v1 key', async () => {
    const { tokenFor, send } = rawSandbox();
    const { access_token } = await tokenFor();
    expect((await send('GET', '/v1/users', access_token)).status).toBe(401);
  });
});

describe('scopes and permissions', () => {
  it('a calls:read token cannot create a call: 403 forbidden', async () => {
    const { tokenFor, send } = rawSandbox();
    const { access_token } = await tokenFor({ scope: 'calls:read' });
    const { status, body } = await send('POST', '/v2/calls', access_token, { to: '+15551234567' });
    expect(status).toBe(403);
    expect(body).toEqual({ status: 'error', code: 'forbidden', message: expect.any(String) });
  });

  it('a token without calls scopes cannot list calls', async () => {
    const { tokenFor, send } = rawSandbox();
    const { access_token } = await tokenFor({ scope: 'contacts:read' });
    expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(403);
  });

  it('POST /v2/webhooks needs a calls scope', async () => {
    const { tokenFor, send } = rawSandbox();
    const hook = { url: 'http://127.0.0.1:9/hooks', events: ['call.ended'] };
    const contacts = (await tokenFor({ scope: 'contacts:read' })).access_token;
    const denied = await send('POST', '/v2/webhooks', contacts, hook);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
    const reader = (await tokenFor({ scope: 'calls:read' })).access_token;
    expect((await send('POST', '/v2/webhooks', reader, hook)).status).toBe(200);
  });

  it('a narrower requested scope is all the token gets: 403 outside it', async () => {
    const { tokenFor, send } = rawSandbox();
    const token = await tokenFor({ scope: 'contacts:read' });
    expect(token.scope).toBe('contacts:read');
    expect((await send('GET', '/v2/calls/recent', token.access_token)).status).toBe(403);
  });

  it('user_id is for administrators only', async () => {
    const { tokenFor, send } = rawSandbox({
      clients: [{ clientId: 'app', clientSecret: 's', admin: false }],
    });
    const { access_token } = await tokenFor({ client_id: 'app', client_secret: 's' });
    expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(200);
    expect((await send('GET', '/v2/calls/recent?user_id=usr_1', access_token)).status).toBe(403);
    const create = await send('POST', '/v2/calls', access_token, { to: '+15551234567', user_id: 'usr_1' });
    expect(create.status).toBe(403);
  });

  it('a read-only API key cannot create users: 403 in the v1 shape', async () => {
    const { send } = rawSandbox({ apiKeys: [{ key: 'ro', permissions: ['users:read'] }] });
    expect((await send('GET', '/v1/users', 'ro')).status).toBe(200);
    const { status, body } = await send('POST', '/v1/users', 'ro', { name: 'A', email: 'a@x.test' });
    expect(status).toBe(403);
    expect(body.error).toEqual({ code: 'forbidden', message: expect.any(String), status_code: 403 });
  });
});

describe('rate limit', () => {
  it('starter: the 101st request in a minute is 429 with Retry-After and the wait in the message', async () => {
    const { sandbox, tokenFor, send } = rawSandbox();
    const { access_token } = await tokenFor();
    for (let i = 0; i < 100; i++) {
      expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(200);
      await sandbox.advance(100);
    }
    const limited = await send('GET', '/v2/calls/recent', access_token);
    expect(limited.status).toBe(429);
    // The first request leaves the window 60 s after it was made: 60 - 10 s elapsed.
    expect(limited.headers.get('retry-after')).toBe('50');
    expect(limited.body).toEqual({
      status: 'error',
      code: 'rate_limit_exceeded',
      message: expect.stringContaining('50 seconds'),
    });
    await sandbox.advance(50_000);
    expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(200);
  });

  it('pro allows 500 a minute; v1 keys are limited by their plan too', async () => {
    const { tokenFor, send } = rawSandbox({
      clients: [{ clientId: 'pro', clientSecret: 's', plan: 'pro' }],
      apiKeys: [{ key: 'k' }],
    });
    const { access_token } = await tokenFor({ client_id: 'pro', client_secret: 's' });
    for (let i = 0; i < 500; i++) await send('GET', '/v2/calls/recent', access_token);
    expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(429);
    for (let i = 0; i < 100; i++) await send('GET', '/v1/users', 'k');
    const v1 = await send('GET', '/v1/users', 'k');
    expect(v1.status).toBe(429);
    expect(v1.headers.get('retry-after')).toBe('60');
    expect(v1.body).toEqual({
      status: 'error',
      error: {
        code: 'rate_limit_exceeded',
        message: expect.stringContaining('60 seconds'),
        status_code: 429,
      },
    });
  });

  it('enterprise allows 2000 a minute', async () => {
    const { tokenFor, send } = rawSandbox({
      clients: [{ clientId: 'big', clientSecret: 's', plan: 'enterprise' }],
    });
    const { access_token } = await tokenFor({ client_id: 'big', client_secret: 's' });
    let accepted = 0;
    for (let i = 0; i < 2000; i++)
      if ((await send('GET', '/v2/calls/recent', access_token)).status === 200) accepted++;
    expect(accepted).toBe(2000);
    expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(429);
  });

  it('counts per client id: its tokens share one window, another client has its own', async () => {
    const { tokenFor, send } = rawSandbox({
      clients: [
        { clientId: 'a', clientSecret: 's' },
        { clientId: 'b', clientSecret: 's' },
      ],
    });
    const first = (await tokenFor({ client_id: 'a', client_secret: 's' })).access_token;
    const second = (await tokenFor({ client_id: 'a', client_secret: 's' })).access_token;
    for (let i = 0; i < 50; i++) await send('GET', '/v2/calls/recent', first);
    for (let i = 0; i < 50; i++) await send('GET', '/v2/calls/recent', second);
    expect((await send('GET', '/v2/calls/recent', first)).status).toBe(429);
    const other = (await tokenFor({ client_id: 'b', client_secret: 's' })).access_token;
    expect((await send('GET', '/v2/calls/recent', other)).status).toBe(200);
  });

  it('an authenticated request to an unknown path counts; one refused with 401 does not', async () => {
    const { tokenFor, send } = rawSandbox();
    const { access_token } = await tokenFor();
    for (let i = 0; i < 150; i++) expect((await send('GET', '/v2/contacts', 'bad')).status).toBe(401);
    for (let i = 0; i < 100; i++) expect((await send('GET', '/v2/contacts', access_token)).status).toBe(404);
    expect((await send('GET', '/v2/calls/recent', access_token)).status).toBe(429);
  });

  it('the token endpoint is not rate limited', async () => {
    const { tokenFor } = rawSandbox();
    for (let i = 0; i < 101; i++) {
      expect((await tokenFor()).access_token).toMatch(/^sbx_at_/);
    }
  });
});
