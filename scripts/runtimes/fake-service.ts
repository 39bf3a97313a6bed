/**
 * A deliberately small stand-in for the service, used by the runtime matrix only while the
 * sandbox (`telephony-sdk/testing`) is not built: spec-shaped answers for one call of each
 * endpoint, 3 pages of recent calls, 404s in both error shapes, and CORS for the browser run.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listCall } from '../../bench/fixtures.js';

export const FAKE_CREDENTIALS = {
  clientId: 'smoke-client',
  clientSecret: 'smoke-secret',
  apiKey: 'smoke-api-key',
  accessToken: 'smoke-token',
};

const TOTAL_CALLS = 5;
const user = {
  id: 'usr_1',
  name: 'Ada',
  email: 'ada@example.com',
  role: 'user',
  status: 'active',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  last_login_at: '2026-11-20T00:00:00Z',
};

type Answer = [status: number, body: unknown];

function v2(req: IncomingMessage, url: URL, body: Record<string, unknown>): Answer {
  const path = url.pathname;
  if (req.method === 'POST' && path === '/v2/oauth/token') {
    return [
      200,
      {
        access_token: FAKE_CREDENTIALS.accessToken,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'calls:read calls:write',
      },
    ];
  }
  if (req.headers.authorization !== `Bearer ${FAKE_CREDENTIALS.accessToken}`) {
    return [401, { status: 'error', code: 'unauthorized', message: 'missing or invalid token' }];
  }
  if (req.method === 'GET' && path === '/v2/calls/recent') {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const count = Math.max(0, Math.min(limit, TOTAL_CALLS - offset));
    const calls = Array.from({ length: count }, (_, i) => listCall(offset + i));
    return [
      200,
      {
        status: 'success',
        data: {
          calls,
          pagination: { total: TOTAL_CALLS, limit, offset, has_more: offset + count < TOTAL_CALLS },
        },
      },
    ];
  }
  if (req.method === 'GET' && path === '/v2/calls/stats') {
    const stats = {
      total_calls: 5,
      total_duration: 300,
      average_duration: 60,
      inbound_calls: 3,
      outbound_calls: 2,
      answered_calls: 4,
      missed_calls: 1,
      voicemail_calls: 0,
    };
    return [200, { status: 'success', data: { stats } }];
  }
  if (req.method === 'POST' && path === '/v2/calls') {
    const call = {
      id: 'call_new',
      status: 'initiating',
      direction: 'outbound',
      from: { number: '+15550000001', name: 'Me' },
      to: { number: body.to, name: '' },
      timestamp: new Date().toISOString(),
      custom_data: body.custom_data ?? {},
    };
    return [200, { status: 'success', data: { call } }];
  }
  if (req.method === 'POST' && path === '/v2/webhooks') {
    return [200, { status: 'success', data: { id: 'wh_1', url: body.url, events: body.events } }];
  }
  const id = /^\/v2\/calls\/([^/]+)(\/transfer)?$/.exec(path);
  if (id && id[1] !== 'call_000000' && id[1] !== 'call_new') {
    return [404, { status: 'error', code: 'not_found', message: `no call ${id[1]}` }];
  }
  if (id && req.method === 'GET') {
    return [
      200,
      {
        status: 'success',
        data: {
          call: {
            ...listCall(0),
            ended_at: '2026-11-22T12:05:00Z',
            transferred: false,
            transfer_history: [],
            custom_data: {},
          },
        },
      },
    ];
  }
  if (id && req.method === 'DELETE')
    return [
      200,
      {
        status: 'success',
        data: { call: { id: id[1], status: 'ended', ended_at: new Date().toISOString() } },
      },
    ];
  if (id && req.method === 'POST' && id[2]) {
    return [
      200,
      {
        status: 'success',
        data: {
          call: {
            id: id[1],
            status: 'transferring',
            transfer_to: body.to,
            transfer_type: body.type ?? 'blind',
          },
        },
      },
    ];
  }
  return [404, { status: 'error', code: 'not_found', message: `no route ${req.method} ${path}` }];
}

function v1(req: IncomingMessage, url: URL, body: Record<string, unknown>): Answer {
  if (req.headers.authorization !== `Bearer ${FAKE_CREDENTIALS.apiKey}`) {
    return [
      401,
      { status: 'error', error: { code: 'authentication_failed', message: 'bad key', status_code: 401 } },
    ];
  }
  if (url.pathname === '/v1/users' && req.method === 'GET') {
    return [
      200,
      {
        status: 'success',
        data: { users: [user] },
        pagination: { total: 1, page: 1, per_page: 10, pages: 1 },
      },
    ];
  }
  if (url.pathname === '/v1/users' && req.method === 'POST') {
    return [200, { status: 'success', data: { user: { ...user, ...body, id: 'usr_2', status: 'pending' } } }];
  }
  const id = /^\/v1\/users\/([^/]+)$/.exec(url.pathname)?.[1];
  if (id !== 'usr_1' && id !== 'usr_2') {
    return [
      404,
      { status: 'error', error: { code: 'not_found', message: `no user ${id}`, status_code: 404 } },
    ];
  }
  if (req.method === 'DELETE') return [200, { status: 'success', data: { deleted: true, id } }];
  const preferences = {
    language: 'en',
    timezone: 'UTC',
    notifications: { email: true, sms: false, push: true },
  };
  return [200, { status: 'success', data: { user: { ...user, ...body, id, preferences } } }];
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text || !(req.headers['content-type'] ?? '').includes('json')) return {};
  return JSON.parse(text) as Record<string, unknown>;
}

function cors(res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-allow-headers', '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, PATCH, DELETE, OPTIONS');
  res.setHeader('access-control-expose-headers', '*');
}

/** Starts the stand-in on 127.0.0.1:0; v2 and v1 on the same origin. */
export async function startFakeService(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    cors(res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const [status, answer] = url.pathname.startsWith('/v1/') ? v1(req, url, body) : v2(req, url, body);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
