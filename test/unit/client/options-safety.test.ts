import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  validateHeaders,
  validateOptions,
  validateRequestOptions,
} from '../../../src/core/options.js';
import { BASE, CANARY, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

const CANARIES = Object.values(CANARY);

/** The error `run` throws: a ValidationError naming `path`, with no canary anywhere in it. */
function refusal(run: () => unknown, path: string): ValidationError {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ValidationError);
  const validation = error as ValidationError;
  expect(validation.issues.map((issue) => issue.path)).toEqual([path]);
  expect(validation.message).toContain(path);
  const texts = [inspect(error, { depth: null }), JSON.stringify(error), JSON.stringify(validation.issues)];
  for (let e: unknown = error; e instanceof Error; e = e.cause) texts.push(e.message, String(e.stack));
  for (const text of texts) for (const canary of CANARIES) expect(text).not.toContain(canary);
  return validation;
}

describe('a base URL with user:pass@', () => {
  it.each([
    ['baseUrl', `https://user:${CANARY.clientSecret}@api.test`],
    ['baseUrl', `https://${CANARY.clientSecret}:@api.test/telephony`],
    ['baseUrlV1', `https://${CANARY.apiKey}@legacy.test`],
    ['baseUrlV1', `http://u:${CANARY.apiKey}@legacy.test:8080/`],
  ])('%s is refused at construction, without echoing the URL', (option, url) => {
    const error = refusal(() => testClient({ [option]: url }), option);
    expect(error.message).toMatch(/user name or password/);
  });

  it('as is a base URL that does not parse (fetch would echo it in its error)', () => {
    refusal(() => testClient({ baseUrl: `https://u:p/${CANARY.clientSecret}@api.test` }), 'baseUrl');
    refusal(() => testClient({ baseUrlV1: `https://legacy.test:${CANARY.apiKey}/` }), 'baseUrlV1');
  });

  it('a base URL without userinfo is still accepted', () => {
    expect(() => testClient({ baseUrl: 'https://gw.example.com:8443/telephony' })).not.toThrow();
  });
});

describe('credentials that cannot go into an HTTP header value', () => {
  const bad = ['\n', '\r\n', '\0', '\x01', '\x1b', '\x7f', '\u0100', '\u2028', '\ud83d\ude00', '\ud800'];

  it.each(['apiKey', 'accessToken', 'clientSecret', 'clientId'] as const)(
    '%s with a line break, control character or non-Latin-1 character is refused, never echoed',
    (option) => {
      for (const character of bad) {
        const value = `${CANARY[option]}${character}x`;
        const error = refusal(() => testClient({ [option]: value }), option);
        expect(error.message).not.toContain(value);
      }
    },
  );

  it('the check runs before anything is sent: a key with \\n never reaches fetch', () => {
    let fetched = 0;
    const fetch = (async () => {
      fetched++;
      return new Response('{}');
    }) as typeof globalThis.fetch;
    refusal(() => testClient({ apiKey: `${CANARY.apiKey}\n`, fetch }), 'apiKey');
    expect(fetched).toBe(0);
  });

  it('a space and Latin-1 letters are accepted in every credential; a tab only in the client id and secret (sent in a form)', () => {
    expect(() =>
      validateOptions({ apiKey: 'ak_é ß ÿ', accessToken: 'at x', clientId: 'ïd\t', clientSecret: 's\t' }),
    ).not.toThrow();
  });

  it('a static accessToken or apiKey with a tab is refused at construction, as the accessToken function value is at the call', async () => {
    refusal(
      () => testClient({ accessToken: 'at\tx', clientId: undefined, clientSecret: undefined }),
      'accessToken',
    );
    refusal(() => testClient({ apiKey: 'ak\tx' }), 'apiKey');
    const fromFunction = testClient({
      accessToken: async () => 'at\tx',
      clientId: undefined,
      clientSecret: undefined,
    });
    const error = await fromFunction.request({ method: 'GET', path: '/v2/x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ issues: [{ path: 'accessToken' }], outcome: 'not_sent' });
  });
});

describe('headers', () => {
  it('defaultHeaders: a value with CR/LF or a control character is refused naming the header, not the value', () => {
    for (const value of [
      `${CANARY.apiKey}\r\nX-Injected: 1`,
      `${CANARY.apiKey}\0`,
      `v\u0100${CANARY.apiKey}`,
    ]) {
      refusal(() => testClient({ defaultHeaders: { 'X-Debug': value } }), 'defaultHeaders.X-Debug');
    }
  });

  it('defaultHeaders: a name that is not an HTTP token is refused without echoing it', () => {
    for (const name of [
      `Authorization: Bearer ${CANARY.accessToken}`,
      `x-${CANARY.apiKey}\n`,
      '',
      'x y',
      'é',
    ]) {
      const error = refusal(() => testClient({ defaultHeaders: { ok: 'v', [name]: 'v' } }), 'defaultHeaders');
      expect(error.message).toMatch(/a header name is not an HTTP token$/);
    }
  });

  it('defaultHeaders must be an object of strings (undefined values allowed)', () => {
    refusal(
      () => testClient({ defaultHeaders: 'x-a: 1' as unknown as Record<string, string> }),
      'defaultHeaders',
    );
    refusal(() => testClient({ defaultHeaders: { 'x-a': 5 as unknown as string } }), 'defaultHeaders.x-a');
    const options: ClientOptions = { defaultHeaders: { 'x-a': 'ok', 'x-b': undefined as unknown as string } };
    expect(() => validateOptions(options)).not.toThrow();
  });

  it('per-call headers are checked the same way, before anything is sent', async () => {
    let sent = 0;
    server.use(
      tokenHandler({ onRequest: () => sent++ }),
      http.get(`${BASE}/v2/calls/c1`, () => {
        sent++;
        return HttpResponse.json({});
      }),
    );
    const client = testClient();
    for (const [headers, path] of [
      [{ 'x-trace': `${CANARY.accessToken}\nX-Injected: 1` }, 'headers.x-trace'],
      [{ 'x trace': 'v' }, 'headers'],
    ] as const) {
      const error = await client.calls.get('c1', { headers }).catch((e: unknown) => e);
      refusal(() => {
        throw error;
      }, path);
    }
    expect(sent).toBe(0);
    refusal(() => validateRequestOptions({ headers: { 'x-a': `${CANARY.apiKey}\r` } }), 'headers.x-a');
  });

  it('validateHeaders (for client.request({ headers })) names the option it is given', () => {
    expect(() => validateHeaders(undefined)).not.toThrow();
    expect(() => validateHeaders({ 'Content-Type': 'application/json', 'x-tab': 'a\tb' })).not.toThrow();
    refusal(() => validateHeaders({ 'x-a': `${CANARY.clientSecret}\n` }), 'headers.x-a');
    refusal(
      () => validateHeaders({ 'x-a': `${CANARY.clientSecret}\n` }, 'request.headers'),
      'request.headers.x-a',
    );
  });
});
