/**
 * The sandbox console, used as a person would: real Chromium (on PATH or CHROMIUM_PATH: see
 * scripts/lib/chromium.ts; through playwright-core) on the page served by `listen({ console: true })`, a real receiver on
 * 127.0.0.1 registered as a webhook. Playwright's locators wait for each change; nothing sleeps.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { TelephonyClient } from 'telephony-sdk';
import { createSandbox, type ListeningSandbox, type Sandbox } from 'telephony-sdk/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { requireChromium } from '../../scripts/lib/chromium.js';

let sandbox: Sandbox;
let server: ListeningSandbox;
let receiver: Server | undefined;
let browser: Browser | undefined;
const received: { body: string; signature: string | undefined; answered: number }[] = [];
/** The receiver's answers, in order; 200 once they run out. */
const answers: number[] = [];

async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answered = answers.shift() ?? 200;
      const signature = req.headers['service-signature'];
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(signature), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

async function openConsole(viewport = { width: 1000, height: 900 }): Promise<Page> {
  browser = await chromium.launch({
    executablePath: requireChromium(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(8_000);
  await page.goto(server.consoleUrl ?? '');
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  return page;
}

beforeEach(async () => {
  sandbox = createSandbox();
  server = await sandbox.listen({ console: true });
});

afterEach(async () => {
  await browser?.close();
  browser = undefined;
  await server.close();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  receiver = undefined;
  received.length = 0;
  answers.length = 0;
});

it('simulates a call from the page, shows it change state, its deliveries (a failed one, its re-delivery) and the chart', async () => {
  const hooks = await startReceiver();
  const { clientId, clientSecret, apiKey } = sandbox.credentials;
  const client = new TelephonyClient({
    baseUrl: server.url,
    baseUrlV1: server.url,
    clientId,
    clientSecret,
    apiKey,
  });
  await client.webhooks.create({ url: hooks, events: ['call.incoming', 'call.answered'] });
  answers.push(500);

  const page = await openConsole();
  // The request that registered the webhook, with who made it and its budget; never a secret.
  const registered = page.getByRole('row').filter({ hasText: '/v2/webhooks' });
  await registered.filter({ hasText: 'sandbox_client_id' }).filter({ hasText: 'starter' }).waitFor();
  expect(await registered.textContent()).toContain('1 / 100');

  await page.getByLabel('From').fill('+15557654321');
  await page.getByLabel('Outcome after ringing').selectOption('answered');
  await page.getByRole('button', { name: 'Simulate incoming call' }).click();
  await page.getByRole('listitem', { name: 'call_000001 ringing' }).waitFor();

  // The receiver answered 500: the attempt stands out, with its re-delivery time and a button.
  const failed = page.locator('#deliveries tr.failed').filter({ hasText: 'call.incoming' });
  await failed.filter({ hasText: 'failed: 500' }).waitFor();
  expect(await failed.textContent()).toContain('09:00:10');
  await page.getByRole('button', { name: `Re-deliver evt_00000001 to ${hooks} now` }).click();
  const redelivered = page.locator('#deliveries tr:not(.failed)').filter({ hasText: 'call.incoming' });
  await redelivered.waitFor();
  await failed.filter({ hasText: 're-delivered (attempt 2)' }).waitFor();
  expect(received.map((delivery) => delivery.answered)).toEqual([500, 200]);

  // The body and signature shown are exactly what the receiver got.
  await redelivered.getByText('Body and signature').click();
  const shown = await redelivered.locator('pre').allTextContents();
  expect(shown).toEqual([`Service-Signature: ${received[1]?.signature}`, received[1]?.body]);

  await page.getByLabel('Advance the clock by (seconds)').fill('5');
  await page.getByRole('button', { name: 'Advance' }).click();
  const answered = page.getByRole('listitem', { name: 'call_000001 answered' });
  await answered.waitFor();
  expect(await answered.getByRole('list', { name: 'Transitions of call_000001' }).textContent()).toMatch(
    /09:00:00 ringing.*09:00:05 answered/,
  );
  await page.locator('#deliveries tr:not(.failed)').filter({ hasText: 'call.answered' }).waitFor();

  await page.getByRole('img', { name: '2025-01-15: 1 call' }).waitFor();
  expect(await page.content()).not.toContain(clientSecret);
  expect(await page.content()).not.toContain(apiKey);
}, 20_000);

it('works from the keyboard and fits a narrow window; every control has a label', async () => {
  const page = await openConsole({ width: 360, height: 800 });
  await page.getByLabel('From').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('+15557654321');
  await page.keyboard.press('Enter');
  await page.getByRole('listitem', { name: 'call_000001 ringing' }).waitFor();
  await page.getByRole('button', { name: 'End call_000001' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('listitem', { name: 'call_000001 ended' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'call_000001 ended' }).waitFor();

  const unlabelled = await page.$$eval('input, select', (controls) =>
    controls
      .filter((control) => (control as HTMLInputElement).labels?.length === 0)
      .map((control) => control.id),
  );
  expect(unlabelled).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}, 20_000);
