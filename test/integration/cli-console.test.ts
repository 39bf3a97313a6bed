import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TelephonyClient } from 'telephony-sdk';
import { afterEach, expect, it } from 'vitest';
import { runScript } from './child.js';

let receiver: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  receiver = undefined;
});

it('telephony-sandbox prints its console URL, serves the console, and logs a line per request and delivery', async () => {
  const run = runScript('src/testing/cli.ts', ['--port', '0']);
  const stdout = await run.printed('Ctrl+C to stop.');
  const consoleUrl = /console \(open it\): +(\S+)/.exec(stdout)?.[1] ?? '';
  const base = /baseUrl and baseUrlV1: +(\S+)/.exec(stdout)?.[1] ?? '';
  expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(consoleUrl).toBe(`${base}/_console/`);
  const page = await fetch(consoleUrl);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(await page.text()).toContain('<title>Telephony sandbox console</title>');

  receiver = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const [, clientId = '', clientSecret = ''] =
    /client id: +(\S+)\n +client secret: +(\S+)/.exec(stdout) ?? [];
  const client = new TelephonyClient({ baseUrl: base, clientId, clientSecret });
  await client.webhooks.create({ url: hooks, events: ['call.incoming'] });
  const simulated = await fetch(`${consoleUrl}api/incoming`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: '+15557654321' }),
  });
  expect(simulated.status).toBe(201);

  const logged = await run.printed(`call.incoming → ${hooks} 503 (attempt 1, re-delivery at `);
  expect(logged).toMatch(/\d\d:\d\d:\d\d POST \/v2\/webhooks 200 sandbox_client_id\n/);
  // The console's own requests are not API requests, and no secret is ever logged.
  expect(logged).not.toMatch(/\/_console\/.* \d{3}/);
  expect(logged.slice(logged.indexOf('Ctrl+C to stop.'))).not.toContain(clientSecret);
  run.child.kill('SIGTERM');
  expect(await run.exited).toEqual([0, null]);
}, 20_000);
