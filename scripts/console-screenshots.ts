/**
 * `npm run docs:screenshots`: the console images of docs/sandbox.md, taken from a real sandbox so
 * they stay true. Starts a sandbox with the console and a receiver on 127.0.0.1 that fails for a
 * while (500 and a JSON reason) and then recovers, makes some activity over two days, and saves
 * PNGs into docs/images/ with Chromium (on PATH or CHROMIUM_PATH): the desktop page at 1280×800 and
 * a 390 px phone.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { TelephonyClient } from '../src/index.js';
import { createSandbox } from '../src/testing/index.js';
import { requireChromium } from './lib/chromium.js';
import { toPalettePng } from './lib/png-palette.js';

const images = fileURLToPath(new URL('../docs/images/', import.meta.url));
/** The receiver fails while this is true: the deliveries made meanwhile wait for their retry. */
let failing = false;

const receiver = createServer((req, res) => {
  req.resume().on('end', () => {
    if (!failing) return res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'database unavailable', retry: true }));
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const sandbox = createSandbox();
const server = await sandbox.listen({ console: true });
const client = new TelephonyClient({ baseUrl: server.url, baseUrlV1: server.url, ...sandbox.credentials });
const events = ['call.incoming', 'call.answered', 'call.missed'];
await client.webhooks.create({ url: hooks, events });

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
await client.calls.create({ to: '+14155550123' });
await sandbox.advance(5_000);
failing = true;
for (const from of ['+15557650003', '+15557650004']) {
  const { id } = sandbox.simulateIncomingCall({ from });
  await sandbox.advance(2_000);
  outcomes(id, from.endsWith('4') ? 'voicemail' : 'answer');
}
await sandbox.advance(12_000); // a first re-delivery fails too
for await (const call of client.calls.listRecent({ limit: 2 })) void call;
sandbox.simulateIncomingCall({ from: '+15557650005' }); // left ringing: Answer, Miss, Voicemail
await sandbox.idle();

const browser = await chromium.launch({
  executablePath: requireChromium(),
  headless: true,
  args: ['--no-sandbox'],
});
try {
  mkdirSync(images, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => console.error(error));
  await page.goto(server.consoleUrl ?? '');
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  await page.getByRole('img', { name: /: 4 calls$/ }).waitFor();
  // The failing event at the top, opened: each attempt's answer, the body sent, as curl.
  await page.locator('li.event.failed').first().getByText('Attempts, body and signature').click();
  await page.screenshot({ path: `${images}console.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('li.event details[open] summary').click();
  await page.evaluate(() => document.getElementById('deliveries-section')?.scrollIntoView());
  await page.screenshot({ path: `${images}console-phone.png` });
  for (const name of ['console.png', 'console-phone.png']) {
    const { before, after } = toPalettePng(`${images}${name}`);
    console.log(`saved ${images}${name}: ${after} bytes (${before} as Chromium wrote it)`);
  }
} finally {
  await browser.close();
  await server.close();
  sandbox.close();
  receiver.close();
}
