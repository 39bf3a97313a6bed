import { APIConnectionError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { serveSandbox } from './helpers.js';
import { rawRequest } from './raw-http.js';
import { expectToSurvive } from './server-survival.js';

describe('listen(): faults and survival over real HTTP', () => {
  it('survives any method and any request target (405 / 400) and serves the next request', async () => {
    const { server } = await serveSandbox();
    await expectToSurvive(server.port);
  });

  it('a 405 and a 400 from the request line come in the API’s error shape', async () => {
    const { server } = await serveSandbox();
    const head = (line: string) => [line, `Host: 127.0.0.1:${server.port}`, 'Connection: close'];
    const trace = await rawRequest(server.port, head('TRACE /v1/users HTTP/1.1'));
    expect([trace.status, trace.headers.allow, JSON.parse(trace.body)]).toEqual([
      405,
      'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      {
        status: 'error',
        error: { code: 'invalid_parameter', message: 'Method TRACE is not allowed', status_code: 405 },
      },
    ]);
    const target = await rawRequest(server.port, head('GET //[ HTTP/1.1'));
    expect(JSON.parse(target.body)).toEqual({
      status: 'error',
      code: 'invalid_parameter',
      message: 'The request target is not a URL path',
    });
  });

  it('drop_before and drop_after destroy the socket: the SDK gets a connection error; drop_after placed the call', async () => {
    const { sandbox, client } = await serveSandbox();
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_before', times: 1 });
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_after', times: 1 });
    const sdk = client({ maxRetries: 0 });
    await expect(sdk.calls.create({ to: '+14155550123' })).rejects.toBeInstanceOf(APIConnectionError);
    expect((await sdk.calls.listRecent()).items).toHaveLength(0);
    await expect(sdk.calls.create({ to: '+14155550123' })).rejects.toBeInstanceOf(APIConnectionError);
    expect((await sdk.calls.listRecent()).items).toHaveLength(1);
    expect(sandbox.faults).toEqual([]);
  });

  it('a hang ends when the client aborts, and when the server closes', async () => {
    const { sandbox, server, client } = await serveSandbox();
    const fault = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'hang' });
    const controller = new AbortController();
    const aborted = client({ maxRetries: 0 }).calls.listRecent({}, { signal: controller.signal });
    await expect.poll(() => fault.hits).toBe(1);
    controller.abort();
    await expect(aborted).rejects.toThrow();

    const closed = client({ maxRetries: 0 }).calls.listRecent();
    await expect.poll(() => fault.hits).toBe(2);
    await server.close();
    await expect(closed).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('delay over HTTP answers once the manual clock has moved', async () => {
    const { sandbox, client } = await serveSandbox();
    const fault = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'delay', delayMs: 10_000 });
    const listing = client().calls.listRecent();
    await expect.poll(() => fault.hits).toBe(1);
    await sandbox.advance(10_000);
    expect((await listing).items).toEqual([]);
  });
});
