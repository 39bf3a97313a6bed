/**
 * The service the runtime matrix talks to: the sandbox from the built `telephony-sdk/testing`
 * when it exports `createSandbox` and tells its credentials, otherwise the small stand-in.
 * For the browser, a CORS proxy on 127.0.0.1 is put in front when the service does not answer
 * preflights itself (and that is reported, since browser users need it).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_CREDENTIALS, startFakeService } from './fake-service.js';
import type { SmokeConfig } from './types.js';

export interface Service {
  name: string;
  baseUrl: string;
  credentials: SmokeConfig['credentials'];
  close(): Promise<void>;
}

interface SandboxModule {
  createSandbox?: (options?: Record<string, unknown>) => {
    listen(options?: { port?: number }): Promise<{ url: string; close(): Promise<void> | void }>;
    credentials?: { clientId?: string; clientSecret?: string; apiKey?: string };
  };
}

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
  const testing = (await import(`${dist}/testing.js`).catch(() => ({}))) as SandboxModule;
  const sandbox = testing.createSandbox?.();
  const { clientId, clientSecret, apiKey } = sandbox?.credentials ?? {};
  if (sandbox && clientId && clientSecret && apiKey) {
    const server = await sandbox.listen({ port: 0 });
    const accessToken = await accessTokenFor(server.url, clientId, clientSecret);
    return {
      name: 'the sandbox (telephony-sdk/testing)',
      baseUrl: server.url,
      credentials: { clientId, clientSecret, apiKey, accessToken },
      close: async () => server.close(),
    };
  }
  const fake = await startFakeService();
  const why = sandbox
    ? 'the sandbox exposes no `credentials` {clientId, clientSecret, apiKey}'
    : 'no sandbox built yet';
  return {
    name: `the stand-in service (${why})`,
    baseUrl: fake.url,
    credentials: FAKE_CREDENTIALS,
    close: fake.close,
  };
}

/** Whether `baseUrl` answers a CORS preflight from another origin. */
export async function answersPreflight(baseUrl: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/v2/calls/recent`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://127.0.0.1:1',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
  await res.arrayBuffer();
  return res.ok && res.headers.get('access-control-allow-origin') !== null;
}

/** A CORS proxy on 127.0.0.1 forwarding to `target`. */
export async function startCorsProxy(target: string): Promise<{ url: string; close(): void }> {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
    'access-control-expose-headers': '*',
  };
  const server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'origin', 'connection'].includes(name))
        headers.set(name, value);
    }
    const upstream = await fetch(`${target}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const answer = Buffer.from(await upstream.arrayBuffer());
    const out: Record<string, string> = { ...cors };
    upstream.headers.forEach((value, name) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
        out[name] = value;
    });
    res.writeHead(upstream.status, out).end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
