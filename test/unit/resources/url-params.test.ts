import { type TelephonyClient, ValidationError } from 'telephony-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { createdCallBody, transferredCallBody } from '../../fixtures/calls.js';
import { BASE, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';
import { route, seen } from './route.js';

let tokenRequests = 0;
beforeEach(() => {
  tokenRequests = 0;
  server.use(tokenHandler({ onRequest: () => tokenRequests++ }));
  route('post', `${BASE}/v2/calls`, () => createdCallBody);
  route('post', `${BASE}/v2/calls/:id/transfer`, () => transferredCallBody);
  route('post', `${BASE}/v2/webhooks`, () => ({ status: 'success', data: { webhook: { id: 'wh_1' } } }));
});

type Send = (client: TelephonyClient, url: string) => Promise<unknown>;

const fields: Array<[string, string, Send]> = [
  [
    'calls.create',
    'callback_url',
    (client, url) => client.calls.create({ to: '+14155550123', callback_url: url }),
  ],
  [
    'calls.transfer',
    'callback_url',
    (client, url) => client.calls.transfer('call_1', { to: '+14155550123', callback_url: url }),
  ],
  ['webhooks.create', 'url', (client, url) => client.webhooks.create({ url, events: ['call.incoming'] })],
];

const refused = [
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/plain,hello',
  'ftp://example.com/hooks',
  'mailto:ops@example.com',
  'ws://example.com/hooks',
  'https:/example.com/hooks',
  'http:example.com/hooks',
  'http://',
  '/hooks',
  'example.com/hooks',
  '',
];

describe.each(fields)('%s %s', (_method, field, send) => {
  it.each(refused)('refuses %j with a ValidationError naming the field, sending nothing', async (url) => {
    const error = await send(testClient(), url).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: field, message: expect.any(String) }]);
    expect((error as ValidationError).message).toContain(`invalid params: ${field} `);
    expect(seen).toHaveLength(0);
    expect(tokenRequests).toBe(0);
  });

  it.each([
    'https://example.com/hooks?source=sdk',
    'http://127.0.0.1:8080/hooks',
    'HTTPS://Example.COM/hooks',
  ])('sends %j', async (url) => {
    await send(testClient(), url);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.body).toMatchObject({ [field]: url });
  });
});
