import { ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { rejection, testClient } from '../../helpers/client.js';

/** A client whose fetch counts: nothing may be sent for a bad argument. */
function counting() {
  const sent = { count: 0 };
  const fetch = (async () => {
    sent.count++;
    return Response.json({});
  }) as typeof globalThis.fetch;
  return {
    sent,
    client: testClient({ accessToken: 'tok', clientId: undefined, clientSecret: undefined, fetch }),
  };
}

describe('client.request refuses bad arguments with a ValidationError naming them, never a raw TypeError', () => {
  it.each([
    ['a BigInt body', { method: 'POST', path: '/v2/x', body: 1n }, 'body'],
    [
      'a cyclic body',
      {
        method: 'POST',
        path: '/v2/x',
        body: (() => {
          const o: Record<string, unknown> = {};
          o.self = o;
          return o;
        })(),
      },
      'body',
    ],
    ['an object query value', { method: 'GET', path: '/v2/x', query: { a: {} } }, 'query.a'],
    ['a symbol query value', { method: 'GET', path: '/v2/x', query: { s: Symbol('s') } }, 'query.s'],
    [
      'an invalid Date',
      { method: 'GET', path: '/v2/x', query: { from: new Date(Number.NaN) } },
      'query.from',
    ],
    ['a string query', { method: 'GET', path: '/v2/x', query: 'a=1' }, 'query'],
    ['no spec', null, 'request'],
  ])('%s', async (_name, spec, path) => {
    const { sent, client } = counting();
    const error = await rejection(Promise.resolve().then(() => client.request(spec as never)));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as unknown as ValidationError).issues).toEqual([{ path, message: expect.any(String) }]);
    expect(error.outcome).toBe('not_sent');
    expect(sent.count).toBe(0);
  });
});
