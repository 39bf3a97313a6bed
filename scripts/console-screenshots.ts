/**
 * `npm run docs:screenshots`: the console images of docs/sandbox.md, taken from a real sandbox so
 * they stay true. Starts a sandbox with the console and a receiver on 127.0.0.1 that fails once,
 * makes some activity over two days, and saves PNGs into docs/images/ with Chromium (on PATH or
 * CHROMIUM_PATH).
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { TelephonyClient } from '../src/index.js';
import { createSandbox } from '../src/testing/index.js';
import { requireChromium } from './lib/chromium.js';

const images = fileURLToPath(new URL('../docs/images/', import.meta.url));
/** The receiver fails the first delivery about this caller, so a failed attempt waits at the top. */
const FAILING_CALLER = '+15557650005';
let failed = false;

const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => {
    const fail = !failed && body.includes(FAILING_CALLER);
    failed ||= fail;
    res.writeHead(fail ? 500 : 200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const sandbox = createSandbox();
const server = await sandbox.listen({ console: true });
const client = new TelephonyClient({ baseUrl: server.url, baseUrlV1: server.url, ...sandbox.credentials });
await client.webhooks.create({ url: hooks, events: ['call.incoming', 'call.missed'] });

const outcomes = (id: string, outcome: 'answer' | 'miss' | 'voicemail') =>
  outcome === 'answer'
    ? sandbox.answerCall(id)
    : outcome === 'miss'
      ? sandbox.missCall(id)
      : sandbox.voicemailCall(id);
for (const [from, outcome] of [
  ['+15557654321', 'answer'],
  ['+15557650002', 'miss'],
] as const) {
  const { id } = sandbox.simulateIncomingCall({ from });
  await sandbox.advance(3_000);
  outcomes(id, outcome);
}
await sandbox.advance(86_400_000);
for (const from of ['+15557650003', '+15557650004']) {
  const { id } = sandbox.simulateIncomingCall({ from });
  await sandbox.advance(2_000);
  outcomes(id, from.endsWith('4') ? 'voicemail' : 'answer');
}
await client.calls.create({ to: '+14155550123' });
await sandbox.advance(5_000);
for await (const call of client.calls.listRecent({ limit: 2 })) void call;
await client.users.list();
sandbox.simulateIncomingCall({ from: FAILING_CALLER });
await sandbox.idle();

const browser = await chromium.launch({
  executablePath: requireChromium(),
  headless: true,
  args: ['--no-sandbox'],
});
try {
  mkdirSync(images, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(server.consoleUrl ?? '');
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  await page.getByRole('img', { name: /: 4 calls$/ }).waitFor();
  await page.screenshot({ path: `${images}console.png` });
  const deliveries = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Webhook deliveries' }) });
  await deliveries.locator('tr.failed').getByText('Body and signature').click();
  // The failed attempt, opened, and the few rows under it: enough to read, small to ship.
  // Measured from the top of the page, which the full-page clip counts from.
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await deliveries.boundingBox();
  if (!box) throw new Error('the deliveries section is not shown');
  const clip = { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 620) };
  await page.screenshot({ path: `${images}console-deliveries.png`, clip, fullPage: true });
  console.log(`saved ${images}console.png and ${images}console-deliveries.png`);
} finally {
  await browser.close();
  await server.close();
  sandbox.close();
  receiver.close();
}
