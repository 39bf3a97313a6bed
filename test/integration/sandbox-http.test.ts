/**
 * The HTTP server that `listen()` (and the CLI) runs, over raw sockets: it answers only its own host
 * names, reads a body only once the credential is accepted and never past its limit, and refuses a
 * `custom_data` it could not serialize again before storing anything.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, type ListeningSandbox, type Sandbox } from 'telephony-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/testing/http.js';
import { rawRequest, rawTokenRequest } from './raw-http.js';

let server: ListeningSandbox | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await server?.close();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  server = receiver = undefined;
});

async function serve(options: { console?: boolean } = {}) {
  const sandbox = createSandbox();
  server = await sandbox.listen(options);
  const { port } = server;
  const own = `127.0.0.1:${port}`;
  const rebound = `evil.test:${port}`;
  const { clientId, clientSecret } = sandbox.credentials;
  const tokenRequest = (host: string) => rawTokenRequest(port, host, clientId, clientSecret);
  const token = JSON.parse((await tokenRequest(own)).body).access_token as string;
  /**
   * A JSON request with the token (or `bearer`), through `host`; `splice` replaces parts of the JSON
   * text (for a body JSON.stringify cannot write).
   */
  const send = (
    method: string,
    path: string,
    host: string,
    body?: unknown,
    bearer = token,
    splice: Record<string, string> = {},
  ) => {
    let text = body === undefined ? '' : JSON.stringify(body);
    for (const [from, to] of Object.entries(splice)) text = text.replace(from, to);
    return rawRequest(
      port,
      [
        `${method} ${path} HTTP/1.1`,
        `Host: ${host}`,
        `Authorization: Bearer ${bearer}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(text)}`,
        'Connection: close',
      ],
      [text],
    );
  };
  return { sandbox, port, own, rebound, tokenRequest, send, token };
}

/** A loopback receiver that answers every delivery 200. */
async function hooksUrl(): Promise<string> {
  receiver = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

const counted = (sandbox: Sandbox) => sandbox.rateReport().map((usage) => usage.counted);

describe('a request naming another host (DNS rebinding)', () => {
  const forbidden = { status: 'error', code: 'forbidden', message: expect.stringContaining('127.0.0.1') };

  it('gets no token for the default credentials: 403 forbidden, none issued', async () => {
    const { sandbox, rebound, tokenRequest } = await serve();
    const answer = await tokenRequest(rebound);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual(forbidden);
    expect(sandbox.rateReport()[0]?.tokensIssued).toBe(1); // the one served() took through its own host
  });

  it('cannot read the lists, register a webhook or place a call, even with a valid token and key', async () => {
    const { sandbox, rebound, send } = await serve();
    const hooks = await hooksUrl();
    const refused = [
      await send('GET', '/v2/calls/recent', rebound),
      await send('POST', '/v2/webhooks', rebound, { url: hooks, events: ['call.answered'] }),
      await send('POST', '/v2/calls', rebound, { to: '+15551234567' }),
    ];
    expect(refused.map((answer) => [answer.status, JSON.parse(answer.body)])).toEqual([
      [403, forbidden],
      [403, forbidden],
      [403, forbidden],
    ]);
    const users = await send('GET', '/v1/users', rebound, undefined, sandbox.credentials.apiKey);
    expect([users.status, JSON.parse(users.body)]).toEqual([
      403,
      { status: 'error', error: { code: 'forbidden', message: forbidden.message, status_code: 403 } },
    ]);
    expect(sandbox.webhooks).toEqual([]);
    await sandbox.advance(40_000);
    expect(sandbox.deliveries).toEqual([]);
    // Refused before any route ran: nothing counted against the budgets.
    expect(counted(sandbox)).toEqual([0, 0]);
  });

  it('is refused whatever the request line says, with the console served or not', async () => {
    for (const console of [false, true]) {
      const { rebound, own, send } = await serve({ console });
      for (const target of ['/v2/calls/recent', `//${own}/v2/calls/recent`, `http://${own}/v2/calls/recent`])
        expect((await send('GET', target, rebound)).status).toBe(403);
      await server?.close();
      server = undefined;
    }
  });

  it('the sandbox’s own names still work: 127.0.0.1 and localhost on its port, any case', async () => {
    const { port, own, send, tokenRequest } = await serve();
    for (const host of [own, `localhost:${port}`, `LocalHost:${port}`])
      expect((await send('GET', '/v2/calls/recent', host)).status).toBe(200);
    expect((await tokenRequest(`localhost:${port}`)).status).toBe(200);
    for (const host of [`127.0.0.1:${port + 1}`, '127.0.0.1', `localhost.evil.test:${port}`])
      expect((await send('GET', '/v2/calls/recent', host)).status).toBe(403);
  });

  it('sandbox.fetch, called in-process, still takes any host', async () => {
    const sandbox = createSandbox();
    const answer = await sandbox.fetch('http://evil.test/v2/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'evil.test' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sandbox.credentials.clientId,
        client_secret: sandbox.credentials.clientSecret,
      }),
    });
    expect(answer.status).toBe(200);
  });
});

describe('request bodies', () => {
  const big = 200 * 1024 * 1024;

  it('an unauthenticated POST is refused from its headers: 401 while its 200 MB body is still unsent', async () => {
    const { sandbox, port, own } = await serve();
    const head = [
      'POST /v2/calls HTTP/1.1',
      `Host: ${own}`,
      'Content-Type: application/json',
      `Content-Length: ${big}`,
    ];
    // Only 64 KiB of the 200 MB is ever sent: an answer at all shows the body was not awaited, and
    // the connection's end (which rawRequest waits for) that the server stopped reading it.
    const answer = await rawRequest(port, head, [Buffer.alloc(65_536, 0x20)]);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'unauthorized' });
    expect(answer.headers.connection).toBe('close');
    expect(sandbox.rateReport()[0]?.counted).toBe(0);
  });

  it(`a body declared larger than ${MAX_BODY_BYTES} bytes is 413 before any of it is read`, async () => {
    const { sandbox, port, own, token } = await serve();
    const head = [
      'POST /v2/calls HTTP/1.1',
      `Host: ${own}`,
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      `Content-Length: ${big}`,
    ];
    const answer = await rawRequest(port, head, ['{"to":"+15551234567","custom_data":{"pad":"']);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      413,
      {
        status: 'error',
        code: 'invalid_parameter',
        message: `The request body is larger than ${MAX_BODY_BYTES} bytes`,
      },
    ]);
    expect(answer.headers.connection).toBe('close');
    await sandbox.advance(40_000);
    expect(sandbox.deliveries).toEqual([]);
    expect(sandbox.rateReport()[0]?.counted).toBe(1);
  });

  it.each([
    [
      'the token endpoint (unauthenticated by design)',
      '/v2/oauth/token',
      'application/x-www-form-urlencoded',
    ],
    ['POST /v2/calls', '/v2/calls', 'application/json'],
  ])(
    'a chunked body of %s is read no further than the limit: 413 and the connection closed',
    async (_case, path, type) => {
      const { port, own, token } = await serve();
      const head = [
        `POST ${path} HTTP/1.1`,
        `Host: ${own}`,
        `Authorization: Bearer ${token}`,
        `Content-Type: ${type}`,
        'Transfer-Encoding: chunked',
      ];
      // One byte over the limit, and never the final chunk: only a server that stops reading answers.
      const size = MAX_BODY_BYTES + 1;
      const answer = await rawRequest(port, head, [
        `${size.toString(16)}\r\n`,
        Buffer.alloc(size, 0x61),
        '\r\n',
      ]);
      expect([answer.status, JSON.parse(answer.body).code]).toEqual([413, 'invalid_parameter']);
      expect(answer.headers.connection).toBe('close');
    },
  );

  it(`a body of exactly ${MAX_BODY_BYTES} bytes is read`, async () => {
    const { sandbox, port, own } = await serve();
    const shell = JSON.stringify({ name: 'Ada', email: 'ada@example.test', department: '' });
    const text = shell.replace(
      '"department":""',
      `"department":"${'d'.repeat(MAX_BODY_BYTES - shell.length)}"`,
    );
    expect(Buffer.byteLength(text)).toBe(MAX_BODY_BYTES);
    const head = [
      'POST /v1/users HTTP/1.1',
      `Host: ${own}`,
      `Authorization: Bearer ${sandbox.credentials.apiKey}`,
      'Content-Type: application/json',
      `Content-Length: ${MAX_BODY_BYTES}`,
      'Connection: close',
    ];
    const answer = await rawRequest(port, head, [text]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.user.department).toHaveLength(MAX_BODY_BYTES - shell.length);
  });
});

describe('custom_data nested 100 000 deep', () => {
  it('is 400 invalid_parameter naming custom_data; nothing is stored or delivered, and time goes on', async () => {
    const { sandbox, own, send } = await serve();
    const registered = await send('POST', '/v2/webhooks', own, {
      url: await hooksUrl(),
      events: ['call.answered', 'call.ended'],
    });
    expect(registered.status).toBe(200);
    // Written by hand: JSON.stringify of such an object overflows the stack.
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const answer = await send('POST', '/v2/calls', own, { to: '+15551234567', custom_data: '§' }, undefined, {
      '"§"': deep,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      status: 'error',
      code: 'invalid_parameter',
      message: 'custom_data may nest at most 32 levels of objects and arrays',
    });
    const listed = JSON.parse((await send('GET', '/v2/calls/recent', own)).body);
    expect(listed.data.pagination.total).toBe(0);
    // Before, the stored call's answer at 5 s overflowed the stack in a timer and ended the process.
    await sandbox.advance(40_000);
    expect(sandbox.deliveries).toEqual([]);
    expect(
      (await send('POST', '/v2/calls', own, { to: '+15551234567', custom_data: { ok: true } })).status,
    ).toBe(200);
    await sandbox.advance(40_000);
    expect(sandbox.deliveries.map((delivery) => [delivery.event.type, delivery.status])).toEqual([
      ['call.answered', 200],
      ['call.ended', 200],
    ]);
  });
});
