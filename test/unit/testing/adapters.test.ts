import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox, type ListeningSandbox } from 'telephony-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const tokenForm = () =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: 'sandbox_client_id',
    client_secret: 'sandbox_client_secret',
  });

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

  it('an unknown path is 404 not_found in the shape of its version', async () => {
    const sandbox = createSandbox();
    const v2 = await sandbox.fetch('http://x.test/v2/contacts');
    expect(v2.status).toBe(404);
    expect(await v2.json()).toMatchObject({ status: 'error', code: 'not_found' });
    const v1 = await sandbox.fetch('http://x.test/v1/meetings');
    expect(await v1.json()).toMatchObject({
      status: 'error',
      error: { code: 'not_found', status_code: 404 },
    });
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
