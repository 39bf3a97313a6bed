import { createSandbox, type ListeningSandbox } from 'telephony-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

const PAGE_ORIGIN = 'http://127.0.0.1:5173';

const preflight = (url: string, origin = PAGE_ORIGIN) =>
  fetch(`${url}/v2/calls/recent`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });

async function accessToken(url: string): Promise<string> {
  const sandbox = { client_id: 'sandbox_client_id', client_secret: 'sandbox_client_secret' };
  const res = await fetch(`${url}/v2/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', ...sandbox }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('sandbox.listen({ cors })', () => {
  let server: ListeningSandbox | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('is off by default: a preflight gets no CORS headers', async () => {
    server = await createSandbox().listen();
    const res = await preflight(server.url);
    await res.arrayBuffer();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('cors: true answers preflights (204) and marks every answer, errors included, for a local page', async () => {
    server = await createSandbox().listen({ cors: true });
    const pre = await preflight(server.url);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(pre.headers.get('vary')).toBe('Origin');
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, DELETE');
    expect(pre.headers.get('access-control-allow-headers')).toBe('authorization');

    const token = await accessToken(server.url);
    const ok = await fetch(`${server.url}/v2/calls/recent`, {
      headers: { origin: PAGE_ORIGIN, authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: 'success', data: { calls: [] } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toBe('retry-after, deprecation, sunset');

    const denied = await fetch(`${server.url}/v2/calls/recent`, {
      headers: { origin: PAGE_ORIGIN, authorization: 'Bearer bad' },
    });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ code: 'unauthorized' });
    expect(denied.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
  });

  it.each(['http://localhost:3000', 'https://localhost', 'http://127.0.0.1:8080', 'http://[::1]:5173'])(
    'cors: true allows the local page %s',
    async (origin) => {
      server = await createSandbox().listen({ cors: true });
      const pre = await preflight(server.url, origin);
      expect([pre.status, pre.headers.get('access-control-allow-origin')]).toEqual([204, origin]);
    },
  );

  it.each([
    'https://evil.example',
    'http://localhost.evil.example',
    'http://127.0.0.1.evil.example:5173',
    'null',
    'file://',
  ])('cors: true refuses a page of %s: 403 and nothing done, a token included', async (origin) => {
    const sandbox = createSandbox();
    server = await sandbox.listen({ cors: true });
    const pre = await preflight(server.url, origin);
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    // A form post needs no preflight: refused before any token is issued.
    const form = await fetch(`${server.url}/v2/oauth/token`, {
      method: 'POST',
      headers: { origin },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'sandbox_client_id',
        client_secret: 'sandbox_client_secret',
      }),
    });
    expect([form.status, ((await form.json()) as { code: string }).code]).toEqual([403, 'forbidden']);
    expect(sandbox.rateReport()[0]?.tokensIssued).toBe(0);
  });

  it('a server-side caller (no Origin) is served as without CORS', async () => {
    server = await createSandbox().listen({ cors: true });
    const token = await accessToken(server.url);
    const res = await fetch(`${server.url}/v2/calls/recent`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await res.arrayBuffer();
  });

  it('answers a preflight without credentials on any path, an unimplemented one included', async () => {
    server = await createSandbox().listen({ cors: true });
    const pre = await fetch(`${server.url}/v2/contacts`, {
      method: 'OPTIONS',
      headers: { origin: PAGE_ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    // The request itself then needs its credential, like any other (SPEC.md: 401 first).
    const bare = await fetch(`${server.url}/v2/contacts`, { headers: { origin: PAGE_ORIGIN } });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    await bare.arrayBuffer();
  });

  it('a string allows that one origin', async () => {
    server = await createSandbox().listen({ cors: PAGE_ORIGIN });
    const pre = await preflight(server.url);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(pre.headers.get('vary')).toBe('Origin');
    expect((await preflight(server.url, 'http://localhost:3000')).status).toBe(403);
  });

  it('a list names exactly the origins allowed, local pages not included', async () => {
    server = await createSandbox().listen({ cors: ['https://app.example', 'https://admin.example'] });
    for (const origin of ['https://app.example', 'https://admin.example']) {
      const pre = await preflight(server.url, origin);
      expect([pre.status, pre.headers.get('access-control-allow-origin')]).toEqual([204, origin]);
    }
    expect((await preflight(server.url, 'https://other.example')).status).toBe(403);
    expect((await preflight(server.url, PAGE_ORIGIN)).status).toBe(403);
  });
});
