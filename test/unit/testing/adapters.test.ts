import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox, type ListeningSandbox, type Sandbox } from 'telephony-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const tokenForm = () =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: 'sandbox_client_id',
    client_secret: 'sandbox_client_secret',
  });

async function accessToken(sandbox: Sandbox): Promise<string> {
  const response = await sandbox.fetch('http://x.test/v2/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm().toString(),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('sandbox.fetch', () => {
  it('accepts (url string, init) like the real fetch, and ignores the host and a base path', async () => {
    const sandbox = createSandbox();
    const response = await sandbox.fetch('https://anything.test/api/v2/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm().toString(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('an unknown path is 404 not_found in the shape of its version, once authenticated', async () => {
    const sandbox = createSandbox();
    const v2 = await sandbox.fetch('http://x.test/v2/contacts', {
      headers: { authorization: `Bearer ${await accessToken(sandbox)}` },
    });
    expect(v2.status).toBe(404);
    expect(await v2.json()).toMatchObject({ status: 'error', code: 'not_found' });
    const v1 = await sandbox.fetch('http://x.test/v1/meetings', {
      headers: { authorization: 'Bearer sandbox_api_key' },
    });
    expect(v1.status).toBe(404);
    expect(await v1.json()).toMatchObject({
      status: 'error',
      error: { code: 'not_found', status_code: 404 },
    });
  });

  it('the credential is checked before the route: an unknown path without one is 401, not 404', async () => {
    const sandbox = createSandbox();
    const bare = await sandbox.fetch('http://x.test/v2/contacts');
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({ status: 'error', code: 'unauthorized', message: expect.any(String) });
    // v2 with the v1 key, and a method no route has: still the token rules first.
    const wrongKind = await sandbox.fetch('http://x.test/v2/voicemail', {
      method: 'PUT',
      headers: { authorization: 'Bearer sandbox_api_key' },
    });
    expect(wrongKind.status).toBe(401);
    // v1: the API key rules and the v1 error shape.
    const v1 = await sandbox.fetch('http://x.test/v1/meetings', {
      headers: { authorization: 'Bearer nope' },
    });
    expect(v1.status).toBe(401);
    expect(await v1.json()).toEqual({
      status: 'error',
      error: { code: 'authentication_failed', message: expect.any(String), status_code: 401 },
    });
    // An expired token is refused on an unknown path too.
    const token = await accessToken(sandbox);
    await sandbox.advance(3_600_000);
    const expired = await sandbox.fetch('http://x.test/v2/contacts', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { message: string }).message).toMatch(/expired/);
  });

  it('the token endpoint needs no credential; other methods on its path do', async () => {
    const sandbox = createSandbox();
    expect(typeof (await accessToken(sandbox))).toBe('string');
    expect((await sandbox.fetch('http://x.test/v2/oauth/token')).status).toBe(401);
  });

  it('malformed JSON is 400 invalid_parameter', async () => {
    const sandbox = createSandbox();
    const response = await sandbox.fetch('http://x.test/v1/users', {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox_api_key', 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(response.status).toBe(400);
  });
});

describe('sandbox.listen', () => {
  let server: ListeningSandbox | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves /v2 and /v1 over real HTTP on 127.0.0.1', async () => {
    const sandbox = createSandbox();
    server = await sandbox.listen();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const token = await fetch(`${server.url}/v2/oauth/token`, { method: 'POST', body: tokenForm() });
    const { access_token } = (await token.json()) as { access_token: string };
    const calls = await fetch(`${server.url}/v2/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+15551234567' }),
    });
    expect(calls.status).toBe(200);
    const users = await fetch(`${server.url}/v1/users?per_page=5`, {
      headers: { authorization: 'Bearer sandbox_api_key' },
    });
    expect(await users.json()).toEqual({
      status: 'success',
      data: { users: [] },
      pagination: { total: 0, page: 1, per_page: 5, pages: 0 },
    });
    const unauthorized = await fetch(`${server.url}/v2/calls/recent`, {
      headers: { authorization: 'Bearer bad' },
    });
    expect(unauthorized.status).toBe(401);
  });
});

describe('sandbox.listen({ port })', () => {
  const open: ListeningSandbox[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });

  it('listens on the port it is given, and close() frees it', async () => {
    const first = await createSandbox().listen();
    open.push(first);
    // The port is really the one asked for: a second server on it cannot start.
    await expect(createSandbox().listen({ port: first.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await open.splice(0)[0]?.close();
    const again = await createSandbox().listen({ port: first.port });
    open.push(again);
    expect(again).toMatchObject({ port: first.port, url: `http://127.0.0.1:${first.port}` });
  });

  it('refuses a port fetch never connects to (SIP 5060 among them), which no client could reach', async () => {
    for (const port of [5060, 5061, 6000])
      await expect(createSandbox().listen({ port })).rejects.toThrow(
        `port ${port} is one fetch refuses to connect to (a "bad port" of the Fetch standard), so no client could reach the sandbox: choose another, or 0 for a free one`,
      );
  });
});

describe('sandbox.mswHandlers', () => {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => msw.resetHandlers());
  afterAll(() => msw.close());

  it('mounts v2 and v1 at the given base URLs inside the caller’s msw', async () => {
    const sandbox = createSandbox();
    msw.use(
      ...sandbox.mswHandlers(http, {
        baseUrl: 'https://api.example.test',
        baseUrlV1: 'https://legacy.example.test',
      }),
      http.get('https://other.test/ping', () => HttpResponse.text('pong')),
    );
    const users = await fetch('https://legacy.example.test/v1/users', {
      headers: { authorization: 'Bearer sandbox_api_key' },
    });
    expect(users.status).toBe(200);
    const token = await fetch('https://api.example.test/v2/oauth/token', {
      method: 'POST',
      body: tokenForm(),
    });
    expect(token.status).toBe(200);
  });
});
