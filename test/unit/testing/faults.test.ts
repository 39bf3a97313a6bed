import { http } from 'msw';
import { setupServer } from 'msw/node';
import { APIConnectionError, TelephonyClient } from 'telephony-sdk';
import { createSandbox, type Sandbox } from 'telephony-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleWorldOf } from '../../../src/testing/sandbox.js';
import { BASE, rawSandbox } from './helpers.js';

const clientOf = (sandbox: Sandbox, fetch: typeof globalThis.fetch = sandbox.fetch) =>
  new TelephonyClient({
    baseUrl: BASE,
    baseUrlV1: BASE,
    ...sandbox.credentials,
    fetch,
    clock: sandbox.clientClock,
    maxRetries: 0,
  });

/** The requests the activity feed recorded, as `method path status fault`. */
const requestLog = (sandbox: Sandbox) =>
  consoleWorldOf(sandbox)
    .activity.recent()
    .requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.fault?.kind ?? '-'}`);

async function placedCalls(sandbox: Sandbox): Promise<number> {
  const { body } = await rawSandboxOn(sandbox).listCalls();
  return body.data.calls.length;
}

/** Raw requests against an existing sandbox, with a fresh token each time. */
function rawSandboxOn(sandbox: Sandbox) {
  const token = async () => {
    const answer = await sandbox.fetch(`${BASE}/v2/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sandbox.credentials.clientId,
        client_secret: sandbox.credentials.clientSecret,
      }),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  };
  const send = async (method: string, path: string, body?: unknown, init: RequestInit = {}) =>
    sandbox.fetch(`${BASE}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await token()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...init,
    });
  return {
    send,
    createCall: () => send('POST', '/v2/calls', { to: '+14155550123' }),
    listCalls: async () => {
      const response = await send('GET', '/v2/calls/recent');
      return { status: response.status, body: (await response.json()) as { data: { calls: unknown[] } } };
    },
  };
}

describe('sandbox.injectFault over sandbox.fetch', () => {
  it('status answers in the path version’s error shape and does nothing (default 500)', async () => {
    const { sandbox } = rawSandbox();
    const raw = rawSandboxOn(sandbox);
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'status' });
    sandbox.injectFault({ path: '/v1/users', kind: 'status', status: 503 });
    const v2 = await raw.createCall();
    expect([v2.status, await v2.json()]).toEqual([
      500,
      { status: 'error', code: 'server_error', message: 'Injected fault: 500' },
    ]);
    const v1 = await sandbox.fetch(`${BASE}/v1/users`, { headers: { authorization: 'Bearer x' } });
    expect([v1.status, await v1.json()]).toEqual([
      503,
      { status: 'error', error: { code: 'server_error', message: 'Injected fault: 503', status_code: 503 } },
    ]);
    expect(await placedCalls(sandbox)).toBe(0);
  });

  it('rate_limit answers 429 with Retry-After (default 1 s), and the client waits it out', async () => {
    const sandbox = createSandbox();
    sandbox.injectFault({ path: '/v2/calls/recent', kind: 'rate_limit', retryAfter: 7, times: 1 });
    const raw = rawSandboxOn(sandbox);
    const first = await raw.send('GET', '/v2/calls/recent');
    expect([first.status, first.headers.get('retry-after')]).toEqual([429, '7']);
    expect(((await first.json()) as { code: string }).code).toBe('rate_limit_exceeded');

    sandbox.injectFault({ path: '/v2/calls/recent', kind: 'rate_limit', times: 1 });
    const before = sandbox.clock.now();
    const client = new TelephonyClient({
      baseUrl: BASE,
      ...sandbox.credentials,
      fetch: sandbox.fetch,
      clock: sandbox.clientClock,
    });
    expect((await client.calls.listRecent()).items).toEqual([]);
    expect(sandbox.clock.now() - before).toBe(1000);
  });

  it('drop_before rejects with fetch’s TypeError and places nothing', async () => {
    const sandbox = createSandbox();
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_before' });
    await expect(rawSandboxOn(sandbox).createCall()).rejects.toThrow(TypeError);
    expect(await placedCalls(sandbox)).toBe(0);
  });

  it('drop_after places the call, then loses the answer', async () => {
    const sandbox = createSandbox();
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_after', times: 1 });
    await expect(rawSandboxOn(sandbox).createCall()).rejects.toThrow(TypeError);
    expect(await placedCalls(sandbox)).toBe(1);
    // times: 1 — the next create is answered.
    expect((await rawSandboxOn(sandbox).createCall()).status).toBe(200);
    expect(await placedCalls(sandbox)).toBe(2);
  });

  it('the SDK sees a drop as a connection error, and the token endpoint is a path like any other', async () => {
    const sandbox = createSandbox();
    const fault = sandbox.injectFault({ path: '/v2/oauth/token', kind: 'status', status: 503, times: 1 });
    sandbox.injectFault({ method: 'GET', path: '/v2/calls/recent', kind: 'drop_before' });
    await expect(clientOf(sandbox).calls.listRecent()).rejects.toMatchObject({ status: 503 });
    expect(sandbox.faults.map((f) => f.path)).toEqual(['/v2/calls/recent']);
    // The token fault's one hit is spent: the next token is issued, the listing is dropped.
    await expect(clientOf(sandbox).calls.listRecent()).rejects.toBeInstanceOf(APIConnectionError);
    expect(fault.hits).toBe(1);
    expect(sandbox.faults).toMatchObject([{ path: '/v2/calls/recent', hits: 1 }]);
  });

  it('matches method and path exactly, * one segment; the first fault injected wins', async () => {
    const sandbox = createSandbox();
    const raw = rawSandboxOn(sandbox);
    sandbox.injectFault({ method: 'get', path: '/v2/calls/*', kind: 'status', status: 502 });
    sandbox.injectFault({ path: '/v2/calls/*', kind: 'status', status: 504 });
    expect((await raw.send('GET', '/v2/calls/recent')).status).toBe(502);
    expect((await raw.send('GET', '/v2/calls/call_x')).status).toBe(502);
    expect((await raw.send('DELETE', '/v2/calls/call_x')).status).toBe(504);
    // One segment only: neither the parent nor a deeper path matches.
    expect((await raw.send('GET', '/v2/calls/call_x/recording')).status).toBe(404);
    expect((await raw.send('POST', '/v2/calls', { to: '+14155550123' })).status).toBe(200);
    // A base path before /v2 does not matter.
    const prefixed = await sandbox.fetch('http://x.test/api/v2/calls/recent');
    expect(prefixed.status).toBe(502);
    expect(sandbox.faults.map((f) => [f.id, f.method, f.hits])).toEqual([
      ['fault_1', 'GET', 3],
      ['fault_2', null, 1],
    ]);
  });

  it('lasts until cleared by default; clear() and clearFaults() remove faults', async () => {
    const sandbox = createSandbox();
    const raw = rawSandboxOn(sandbox);
    const fault = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status' });
    for (let i = 0; i < 3; i++) expect((await raw.send('GET', '/v2/calls/recent')).status).toBe(500);
    expect(sandbox.faults).toMatchObject([{ id: fault.id, hits: 3, times: null, status: 500 }]);
    fault.clear();
    expect(sandbox.faults).toEqual([]);
    expect((await raw.send('GET', '/v2/calls/recent')).status).toBe(200);
    expect(fault.hits).toBe(3);

    sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status' });
    sandbox.injectFault({ path: '/v2/calls', kind: 'drop_before' });
    expect(sandbox.faults).toHaveLength(2);
    sandbox.clearFaults();
    expect(sandbox.faults).toEqual([]);
    expect((await raw.send('GET', '/v2/calls/recent')).status).toBe(200);
  });

  it('delay answers once that much sandbox time has passed, and not before', async () => {
    const sandbox = createSandbox();
    const raw = rawSandboxOn(sandbox);
    const fault = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'delay', delayMs: 3000 });
    let answered = false;
    const pending = raw.send('GET', '/v2/calls/recent').then((response) => {
      answered = true;
      return response;
    });
    await expect.poll(() => fault.hits).toBe(1);
    await sandbox.advance(2999);
    expect(answered).toBe(false);
    await sandbox.advance(1);
    expect((await pending).status).toBe(200);
  });

  it('a delayed or hanging request ends with its signal’s reason when aborted', async () => {
    const sandbox = createSandbox();
    const raw = rawSandboxOn(sandbox);
    const hang = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'hang', times: 1 });
    const delay = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'delay', delayMs: 60_000 });
    for (const [kind, fault] of [
      ['hang', hang],
      ['delay', delay],
    ] as const) {
      const controller = new AbortController();
      const pending = raw.send('GET', '/v2/calls/recent', undefined, { signal: controller.signal });
      await expect.poll(() => fault.hits).toBe(1);
      controller.abort(new Error(`gave up on the ${kind}`));
      await expect(pending).rejects.toThrow(`gave up on the ${kind}`);
    }
    // Recorded with no answer sent.
    expect(requestLog(sandbox).filter((line) => line.includes('null'))).toEqual([
      'GET /v2/calls/recent null hang',
      'GET /v2/calls/recent null delay',
    ]);
  });

  it('the activity feed marks which requests a fault hit', async () => {
    const sandbox = createSandbox();
    const raw = rawSandboxOn(sandbox);
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_after', times: 1 });
    sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status', status: 502, times: 1 });
    await expect(raw.createCall()).rejects.toThrow(TypeError);
    await raw.send('GET', '/v2/calls/recent');
    await raw.send('GET', '/v2/calls/recent');
    expect(requestLog(sandbox).filter((line) => !line.includes('/oauth/'))).toEqual([
      'POST /v2/calls null drop_after',
      'GET /v2/calls/recent 502 status',
      'GET /v2/calls/recent 200 -',
    ]);
  });

  it.each([
    [{ path: 'v2/calls', kind: 'status' }, 'path must start with /'],
    [{ path: '/v2/calls?x=1', kind: 'status' }, 'path must start with /'],
    [{ path: '/v2/calls', kind: 'explode' }, 'kind must be one of status, rate_limit'],
    [{ path: '/v2/calls', kind: 'status', method: 'GE T' }, 'method must be'],
    [{ path: '/v2/calls', kind: 'status', times: 0 }, 'times must be'],
    [{ path: '/v2/calls', kind: 'status', status: 200 }, 'status must be from 400 to 599'],
    [{ path: '/v2/calls', kind: 'delay' }, 'delayMs (ms) is required'],
    [{ path: '/v2/calls', kind: 'hang', delayMs: 5 }, 'delayMs does not apply to a hang fault'],
    [{ path: '/v2/calls', kind: 'rate_limit', retryAfter: -1 }, 'retryAfter must be'],
  ])('refuses %o, naming the field', (init, message) => {
    const sandbox = createSandbox();
    expect(() => sandbox.injectFault(init as never)).toThrow(message);
    expect(sandbox.faults).toEqual([]);
  });
});

describe('faults over mswHandlers', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  it('a drop is a failed fetch; drop_after still places the call', async () => {
    const sandbox = createSandbox();
    server.use(...sandbox.mswHandlers(http, { baseUrl: BASE }));
    const client = clientOf(sandbox, (input, init) => globalThis.fetch(input, init));
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_after', times: 1 });
    await expect(client.calls.create({ to: '+14155550123' })).rejects.toBeInstanceOf(APIConnectionError);
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_before', times: 1 });
    // The client cannot tell the two drops apart: both may have placed the call.
    await expect(client.calls.create({ to: '+14155550123' })).rejects.toMatchObject({ outcome: 'unknown' });
    expect((await client.calls.listRecent()).items).toHaveLength(1);
    sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status', status: 500, times: 1 });
    await expect(client.calls.listRecent()).rejects.toMatchObject({ status: 500 });
  });

  it('a hang under msw ends when the request is aborted, with nothing for msw to report', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const sandbox = createSandbox();
    server.use(...sandbox.mswHandlers(http, { baseUrl: BASE }));
    const client = clientOf(sandbox, (input, init) => globalThis.fetch(input, init));
    const fault = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'hang' });
    const controller = new AbortController();
    const listing = client.calls.listRecent({}, { signal: controller.signal });
    await expect.poll(() => fault.hits).toBe(1);
    controller.abort();
    await expect(listing).rejects.toThrow();
    fault.clear();
    expect((await client.calls.listRecent()).items).toEqual([]);
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('createSandbox({ deprecation })', () => {
  it('sends the Deprecation and Sunset headers given, on that version’s answers only', async () => {
    const sandbox = createSandbox({
      deprecation: { v1: { deprecation: '@1703980800', sunset: 'Wed, 31 Dec 2025 23:59:59 GMT' } },
    });
    const v1 = await sandbox.fetch(`${BASE}/v1/users`, { headers: { authorization: 'Bearer nope' } });
    expect([v1.status, v1.headers.get('deprecation'), v1.headers.get('sunset')]).toEqual([
      401,
      '@1703980800',
      'Wed, 31 Dec 2025 23:59:59 GMT',
    ]);
    const v2 = await sandbox.fetch(`${BASE}/v2/calls/recent`);
    expect([v2.headers.has('deprecation'), v2.headers.has('sunset')]).toEqual([false, false]);
    const plain = await createSandbox().fetch(`${BASE}/v1/users`);
    expect(plain.headers.has('deprecation')).toBe(false);
  });
});
