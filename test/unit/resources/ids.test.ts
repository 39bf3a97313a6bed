import { HttpResponse, http } from 'msw';
import { type TelephonyClient, ValidationError } from 'telephony-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

/** Every resource method that takes an id, called with `id` (as JavaScript could pass anything). */
const METHODS: Array<
  [method: string, param: string, call: (client: TelephonyClient, id: string) => unknown]
> = [
  ['calls.get', 'callId', (client, id) => client.calls.get(id)],
  ['calls.end', 'callId', (client, id) => client.calls.end(id)],
  ['calls.transfer', 'callId', (client, id) => client.calls.transfer(id, { to: '+14155550123' })],
  ['users.get', 'userId', (client, id) => client.users.get(id)],
  ['users.update', 'userId', (client, id) => client.users.update(id, { name: 'Ann' })],
  ['users.delete', 'userId', (client, id) => client.users.delete(id)],
];

/** Bad ids and what the message says was received. */
const BAD_IDS: Array<[label: string, id: unknown, got: string]> = [
  ["''", '', '(got "")'],
  ["'.'", '.', '(got ".")'],
  ["'..'", '..', '(got "..")'],
  ['NaN', Number.NaN, '(got number NaN)'],
  ['Infinity', Number.POSITIVE_INFINITY, '(got number Infinity)'],
  ['-0', -0, '(got number -0)'],
  ['1.5', 1.5, '(got number 1.5)'],
  ['42', 42, '(got number 42)'],
  ['null', null, '(got null)'],
  ['undefined', undefined, '(got undefined)'],
  ['{}', {}, '(got object)'],
  ["['a']", ['a'], '(got array)'],
  ['lone surrogate', '\uD800', '(got "\\ud800")'],
];

let requests = 0;
beforeEach(() => {
  requests = 0;
  // Any request at all (token included) is counted; none may be sent for a bad id.
  server.use(
    http.all('*', () => {
      requests++;
      return HttpResponse.json({ status: 'error', code: 'unexpected', message: 'sent' }, { status: 500 });
    }),
  );
});

describe.each(METHODS)('%s(%s)', (method, param, call) => {
  it.each(BAD_IDS)(
    'rejects %s with a ValidationError naming the method and parameter, sending nothing',
    async (_, id, got) => {
      let result: unknown;
      expect(() => {
        result = call(testClient(), id as string);
      }).not.toThrow();
      const error = await (result as Promise<unknown>).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ValidationError);
      const { message, issues } = error as ValidationError;
      expect(message.startsWith(`${method}: ${param} `)).toBe(true);
      expect(message.endsWith(got)).toBe(true);
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe(param);
      expect(message).toBe(`${method}: ${param} ${issues[0]?.message}`);
      expect(requests).toBe(0);
    },
  );
});

describe('echoed values are capped', () => {
  it('a 5 MB string with a lone surrogate is refused with a short message', async () => {
    const id = `${'x'.repeat(5_000_000)}\uD800`;
    const error = (await testClient()
      .users.delete(id)
      .catch((reason: unknown) => reason)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message.length).toBeLessThan(200);
    expect(error.issues[0]?.message.length).toBeLessThan(200);
    expect(requests).toBe(0);
  });
});
