import { HttpResponse, http } from 'msw';
import { TelephonyClient, ValidationError } from 'telephony-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, BASE_V1, CANARY, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('options', () => {
  it.each([
    [{ baseUrl: 'ftp://x' }, 'baseUrl'],
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ timeout: Number.NaN }, 'timeout'],
    [{ clientSecret: undefined }, 'clientSecret'],
    [{ scope: 3 as unknown as string }, 'scope'],
    [{ scope: '' }, 'scope'],
    [{ scope: ' ' }, 'scope'],
    [{ scope: [] }, 'scope'],
    [{ scope: [''] }, 'scope'],
    [{ timeout: 0 }, 'timeout'],
    [{ timeout: 2 ** 31 }, 'timeout'],
    [{ baseUrl: 'https://api.example.com/v2' }, 'baseUrl'],
    [{ baseUrl: 'https://api.example.com/v2/' }, 'baseUrl'],
    [{ baseUrlV1: 'https://legacy.example.com/v1' }, 'baseUrlV1'],
    [{ retries: 0 } as object, 'retries'],
  ])('rejects %o naming %s', (overrides, option) => {
    const error = (() => {
      try {
        testClient(overrides);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe(option);
    expect((error as Error).message).not.toContain(CANARY.clientSecret);
  });

  it.each([
    [{ maxRetries: -2 }, 'maxRetries'],
    [{ timeout: -1 }, 'timeout'],
    [{ maxRetryAfter: Number.POSITIVE_INFINITY }, 'maxRetryAfter'],
    [{ signal: 'stop' as unknown as AbortSignal }, 'signal'],
    [{ timeout: 0 }, 'timeout'],
    [{ timeout: Number.MAX_SAFE_INTEGER }, 'timeout'],
    [{ retries: 0 } as object, 'retries'],
  ])('rejects per-call %o naming %s, before any request is sent', async (options, option) => {
    let sent = 0;
    server.use(
      tokenHandler({ onRequest: () => sent++ }),
      http.get(`${BASE}/v2/calls/c1`, () => {
        sent++;
        return HttpResponse.json({});
      }),
    );
    const error = await testClient()
      .calls.get('c1', options)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe(option);
    expect(sent).toBe(0);
  });

  it('says why: a versioned base URL, and the near miss of an unknown option', () => {
    expect(() => testClient({ baseUrl: 'https://api.example.com/v2' })).toThrow(
      'Invalid option baseUrl: must not end in /v1 or /v2: the SDK appends /v2 itself',
    );
    expect(() => testClient({ baseURL: 'https://api.example.com' } as object)).toThrow(
      /^Invalid option baseURL: unknown option \(did you mean baseUrl\?\); known: baseUrl, baseUrlV1, /,
    );
    // A path prefix that is not a version is kept (a gateway mounting the service under /telephony).
    expect(() => testClient({ baseUrl: 'https://gw.example.com/telephony' })).not.toThrow();
  });

  it('per-call headers are sent over the client defaults, and cannot replace Authorization', async () => {
    const seen: Array<Record<string, string | null>> = [];
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/calls/c1`, ({ request }) => {
        seen.push({
          auth: request.headers.get('authorization'),
          trace: request.headers.get('x-trace'),
          tenant: request.headers.get('x-tenant'),
        });
        return HttpResponse.json({}, { status: 404 });
      }),
    );
    const client = testClient({ defaultHeaders: { 'x-tenant': 'default', 'x-trace': 'default' } });
    await client.calls
      .get('c1', { headers: { 'X-Trace': 't1', authorization: 'Bearer evil' } })
      .catch(() => undefined);
    expect(seen).toEqual([{ auth: `Bearer ${CANARY.accessToken}`, trace: 't1', tenant: 'default' }]);
  });
});

describe('browser guard', () => {
  it('refuses clientSecret or apiKey in a browser unless dangerouslyAllowBrowser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => testClient()).toThrow(/dangerouslyAllowBrowser/);
    expect(() => new TelephonyClient({ baseUrlV1: BASE_V1, apiKey: CANARY.apiKey })).toThrow(ValidationError);
    expect(() => testClient({ dangerouslyAllowBrowser: true })).not.toThrow();
    expect(() => new TelephonyClient({ baseUrl: BASE, accessToken: async () => 't' })).not.toThrow();
  });

  it('is not triggered in Node or Deno-like globals (window without document)', () => {
    vi.stubGlobal('window', {});
    expect(() => testClient()).not.toThrow();
  });
});

describe('request() escape hatch', () => {
  it('reaches /v2 and /v1 paths with the right credential, headers and options', async () => {
    const seen: Array<Record<string, string | null>> = [];
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/contacts`, ({ request }) => {
        seen.push({ auth: request.headers.get('authorization'), x: request.headers.get('x-extra') });
        return HttpResponse.json({ status: 'success', data: { contacts: [] } });
      }),
      http.post(`${BASE_V1}/v1/voicemail`, ({ request }) => {
        seen.push({ auth: request.headers.get('authorization'), x: request.headers.get('x-default') });
        return HttpResponse.json({ status: 'success' });
      }),
    );
    const client = testClient({ defaultHeaders: { 'x-default': 'd' } });
    await expect(
      client.request({
        method: 'GET',
        path: '/v2/contacts',
        headers: { 'x-extra': 'e', Authorization: 'Bearer evil' },
      }),
    ).resolves.toEqual({ status: 'success', data: { contacts: [] } });
    await expect(client.request({ method: 'POST', path: '/v1/voicemail', body: {} })).resolves.toEqual({
      status: 'success',
    });
    expect(seen).toEqual([
      { auth: `Bearer ${CANARY.accessToken}`, x: 'e' },
      { auth: `Bearer ${CANARY.apiKey}`, x: 'd' },
    ]);
  });

  it('rejects a path outside /v2/ and /v1/ without sending', async () => {
    await expect(testClient().request({ method: 'GET', path: '/v3/x' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      testClient().request({ method: 'GET', path: 'https://evil.test/v2/x' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('download() under a base URL with a path prefix: the prefixed URL is used, one outside it refused', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/telephony/v2/calls/c1/recording`, () => new HttpResponse(new Uint8Array([7]))),
    );
    const client = testClient({ baseUrl: `${BASE}/telephony`, accessToken: 'tok' });
    const response = await client.calls.downloadRecording(`${BASE}/telephony/v2/calls/c1/recording?sig=abc`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([7]));
    const outside = await client.calls
      .downloadRecording(`${BASE}/v2/calls/c1/recording?sig=abc`)
      .catch((e: unknown) => e);
    expect(outside).toBeInstanceOf(ValidationError);
    expect((outside as Error).message).toBe(
      `Refusing to send credentials to ${new URL(BASE).origin}/v2/calls/c1/recording: must be under baseUrl`,
    );
  });

  it('download() streams a recording on the configured origin only', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/recordings/r1.mp3`, () => new HttpResponse(new Uint8Array([1, 2, 3]))),
    );
    const client = testClient();
    const response = await client.transport.download({ method: 'GET', path: `${BASE}/v2/recordings/r1.mp3` });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    await expect(
      client.transport.download({ method: 'GET', path: 'https://cdn.evil.test/v2/recordings/r1.mp3' }),
    ).rejects.toBeInstanceOf(ValidationError);
    // A foreign host is refused as such, whatever its path looks like.
    await expect(client.calls.downloadRecording('https://cdn.evil.test/rec.mp3')).rejects.toThrow(
      'Refusing to send credentials to https://cdn.evil.test: must be under baseUrl or baseUrlV1',
    );
    // The v1 origin does not take a v2 recording's credential.
    await expect(client.calls.downloadRecording(`${BASE_V1}/v2/recordings/r1.mp3`)).rejects.toThrow(
      `Refusing to send credentials to ${new URL(BASE_V1).origin}/v2/recordings/r1.mp3: must be under baseUrl`,
    );
  });
});
