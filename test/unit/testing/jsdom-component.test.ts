// @vitest-environment jsdom
/**
 * A component test under jsdom, written as docs/sandbox.md shows: the client sees a browser there,
 * so the sandbox's credentials need `dangerouslyAllowBrowser: true`, which the page says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TelephonyClient, ValidationError } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';
import { describe, expect, it } from 'vitest';

// A path from the string import.meta.url: under jsdom, `URL` is jsdom's, which node:fs refuses.
const sandboxDoc = join(fileURLToPath(import.meta.url), '../../../../docs/sandbox.md');

describe('the sandbox in a jsdom component test', () => {
  it('refuses the secrets without dangerouslyAllowBrowser, as docs/sandbox.md warns', () => {
    expect(typeof document).toBe('object');
    expect(readFileSync(sandboxDoc, 'utf8')).toContain('add `dangerouslyAllowBrowser: true`');
    const sandbox = createSandbox();
    const options = { baseUrl: 'http://sandbox.test', ...sandbox.credentials, fetch: sandbox.fetch };
    expect(() => new TelephonyClient(options)).toThrow(ValidationError);
  });

  it('with dangerouslyAllowBrowser: true, a component lists calls and renders them', async () => {
    const sandbox = createSandbox();
    const client = new TelephonyClient({
      baseUrl: 'http://sandbox.test',
      baseUrlV1: 'http://sandbox.test',
      ...sandbox.credentials,
      fetch: sandbox.fetch,
      clock: sandbox.clientClock,
      dangerouslyAllowBrowser: true,
    });
    const call = await client.calls.create({ to: '+15551234567' });
    const list = document.createElement('ul');
    for await (const item of client.calls.listRecent({ limit: 10 })) {
      const row = document.createElement('li');
      row.textContent = `${item.id} ${item.status}`;
      list.append(row);
    }
    document.body.append(list);
    expect(document.querySelector('li')?.textContent).toBe(`${call.id} initiating`);
  });
});
