/**
 * Every message the user docs quote is the message the code gives: each case reads the quote from
 * its page and produces the message from the SDK (against the sandbox where the service answers),
 * so a reworded message fails here until the docs say it too.
 */
import { readFileSync } from 'node:fs';
import { TelephonyClient } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';
import { signWebhook, WebhookReceiver } from 'telephony-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/compile.js';

/** The rejection's message, or the throw's. */
async function messageOf(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a failure');
}

function sandboxClient() {
  const sandbox = createSandbox();
  return new TelephonyClient({
    baseUrl: 'http://sandbox.test',
    baseUrlV1: 'http://sandbox.test',
    ...sandbox.credentials,
    fetch: sandbox.fetch,
    clock: sandbox.clientClock,
  });
}

const cases: { docs: string[]; quote: string; produce: () => Promise<string> }[] = [
  {
    docs: ['README.md', 'docs/core.md'],
    quote: 'GET /v2/calls/recent → 400 invalid_parameter: limit must be an integer',
    produce: () =>
      messageOf(() =>
        sandboxClient().request({ method: 'GET', path: '/v2/calls/recent', query: { limit: 'abc' } }),
      ),
  },
  {
    docs: ['README.md'],
    quote: "[{ path: 'to', message: 'must be an E.164 number like +14155550123' }]",
    produce: async () => {
      try {
        await sandboxClient().calls.create({ to: '555-0123' });
      } catch (error) {
        const [issue] = (error as { issues: { path: string; message: string }[] }).issues;
        return `[{ path: '${issue?.path}', message: '${issue?.message}' }]`;
      }
      throw new Error('expected a ValidationError');
    },
  },
  {
    docs: ['docs/sandbox.md'],
    quote:
      'port 5060 is one fetch\nrefuses to connect to (a "bad port" of the Fetch standard), so no client could reach the sandbox:\nchoose another, or 0 for a free one',
    produce: async () =>
      (await messageOf(() => createSandbox().listen({ port: 5060 })))
        .replace('fetch refuses', 'fetch\nrefuses')
        .replace('sandbox: choose', 'sandbox:\nchoose'),
  },
  {
    docs: ['docs/webhooks.md'],
    quote: 'timestamp must be a whole number of seconds, e.g.\nMath.floor(Date.now() / 1000)',
    produce: async () =>
      (await messageOf(() => signWebhook('{}', 'whsec_x', { timestamp: Date.now() }))).replace(
        'e.g. Math',
        'e.g.\nMath',
      ),
  },
  {
    docs: ['docs/webhooks.md'],
    quote: 'handlerTimeout is in seconds: 30000 would be 8.3 hours',
    produce: () => messageOf(() => new WebhookReceiver({ secret: 'whsec_x', handlerTimeout: 30_000 })),
  },
  {
    docs: ['docs/webhooks.md'],
    quote: 'maxEventAge must not exceed dedupTtl',
    produce: () =>
      messageOf(() => new WebhookReceiver({ secret: 'whsec_x', dedupTtl: 60, maxEventAge: 120 })),
  },
];

describe('messages quoted in the docs', () => {
  it.each(cases)('$quote', async ({ docs, quote, produce }) => {
    for (const doc of docs) expect(readFileSync(`${root}/${doc}`, 'utf8'), doc).toContain(quote);
    expect(await produce()).toContain(quote);
  });
});
