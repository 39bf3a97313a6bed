/**
 * The console as a bench for failure, in real Chromium (scripts/lib/chromium.ts, through
 * playwright-core): faults listed, added and cleared; the requests they hit marked; a failing
 * receiver's reason shown, escaped; counts that follow the filters; real attempt numbers past the
 * page's history; the whole URL in the URL filter. Playwright's locators wait; nothing sleeps.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { APIConnectionError, TelephonyClient } from 'telephony-sdk';
import { createSandbox, type ListeningSandbox, type Sandbox } from 'telephony-sdk/testing';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { requireChromium } from '../../scripts/lib/chromium.js';
import { consoleWorldOf } from '../../src/testing/sandbox.js';

let sandbox: Sandbox;
let server: ListeningSandbox;
let browser: Browser;
let context: BrowserContext | undefined;
const receivers: Server[] = [];

/** A receiver on 127.0.0.1 that answers every delivery `status` with `body`. */
async function startReceiver(status: number, body: string) {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  receivers.push(receiver);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

const client = () =>
  new TelephonyClient({ baseUrl: server.url, baseUrlV1: server.url, ...sandbox.credentials, maxRetries: 0 });

async function openConsole(): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  await page.goto(server.consoleUrl ?? '');
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  return page;
}

const eventRow = (page: Page, eventId: string, url: string, webhookId: string) =>
  page.getByRole('listitem', { name: `${eventId} to ${url} (${webhookId})`, exact: true });

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: requireChromium(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  sandbox = createSandbox({ deliveryTimeout: 2_000 });
  server = await sandbox.listen({ console: true });
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  await server.close();
  sandbox.close();
  for (const receiver of receivers.splice(0)) {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

it('lists, adds and clears faults, and marks in the requests the ones a fault hit', async () => {
  const page = await openConsole();
  const faults = page.getByRole('list', { name: 'Faults in force' });

  await page.getByLabel('Method').selectOption('POST');
  await page.getByLabel('Path (* for one segment)').fill('/v2/calls');
  await page.getByLabel('Kind').selectOption('drop_after');
  await expect.poll(() => page.getByLabel('Status answered').isVisible()).toBe(false);
  await page.getByLabel('Times (empty: until cleared)').fill('1');
  await page.getByRole('button', { name: 'Inject fault' }).click();
  await faults.getByText('fault_1 POST /v2/calls drop_after, 0 hits of 1').waitFor();
  expect(sandbox.faults).toMatchObject([{ id: 'fault_1', method: 'POST', kind: 'drop_after', times: 1 }]);

  await expect(client().calls.create({ to: '+14155550123' })).rejects.toBeInstanceOf(APIConnectionError);
  // Its one hit spent, the fault is gone; the request it hit is marked, with no answer.
  await page.getByText('None in force.').waitFor();
  const hit = page.locator('#requests tbody tr').filter({ hasText: 'POST' }).filter({ hasText: '/v2/calls' });
  await hit.filter({ hasText: 'fault_1 drop_after' }).waitFor();
  expect(await hit.locator('td.status').textContent()).toBe('no answer');

  // One with an option of its kind, and one from the test's own code: both listed live.
  await page.getByLabel('Path (* for one segment)').fill('/v2/calls/*');
  await page.getByLabel('Kind').selectOption('delay');
  await page.getByLabel('Delay (ms of sandbox time)').fill('2500');
  await page.getByLabel('Times (empty: until cleared)').fill('');
  await page.getByLabel('Method').selectOption('');
  await page.getByRole('button', { name: 'Inject fault' }).click();
  await faults.getByText('fault_2 any /v2/calls/* delay delayMs=2500, 0 hits, until cleared').waitFor();
  sandbox.injectFault({ path: '/v2/oauth/token', kind: 'status', status: 503 });
  await faults.getByText('fault_3 any /v2/oauth/token status 503, 0 hits, until cleared').waitFor();

  await page.getByRole('button', { name: 'Clear fault_2' }).click();
  await page.getByRole('button', { name: 'Clear fault_2' }).waitFor({ state: 'detached' });
  expect(sandbox.faults.map((fault) => fault.id)).toEqual(['fault_3']);
  await page.getByRole('button', { name: 'Clear all faults' }).click();
  await page.getByText('None in force.').waitFor();
  expect(sandbox.faults).toEqual([]);
}, 60_000);

it('shows a failing receiver’s reason, escaped and bounded; failing now follows the filters; the URL filter shows whole URLs', async () => {
  const refusing = await startReceiver(401, JSON.stringify({ error: 'signature_mismatch' }));
  const shouting = await startReceiver(500, `<b>down</b>${'x'.repeat(300)}`);
  const api = client();
  await api.webhooks.create({ url: refusing, events: ['call.incoming'] });
  await api.webhooks.create({ url: shouting, events: ['call.incoming'] });
  sandbox.simulateIncomingCall({ from: '+15557650001' });
  await sandbox.idle();
  const page = await openConsole();

  const refused = eventRow(page, 'evt_00000001', refusing, 'wh_000001');
  await refused.filter({ hasText: 'failed: 401' }).filter({ hasText: '(signature_mismatch)' }).waitFor();
  await refused.getByText('Attempts, body and signature').click();
  await refused.getByText('Reason: signature_mismatch').waitFor();

  const html = eventRow(page, 'evt_00000001', shouting, 'wh_000002');
  await html.filter({ hasText: 'failed: 500' }).waitFor();
  const reason = await html.locator('.event-head .why-answer').textContent();
  expect(reason).toBe(`(<b>down</b>${'x'.repeat(189)}…)`);
  expect(await html.locator('b').count()).toBe(0);

  await page.getByText('failing now: 2').waitFor();
  const urlFilter = page.getByLabel('URL', { exact: true });
  await urlFilter.selectOption(refusing);
  await page.getByText('failing now: 1').waitFor();
  // The select is as wide as the whole URL it shows, not cut after http://127.0.0.1.
  const fits = await urlFilter.evaluate((select: HTMLSelectElement) => {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(select).font;
    probe.textContent = select.value;
    document.body.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    return select.getBoundingClientRect().width >= width;
  });
  expect(fits).toBe(true);
}, 60_000);

it('counts every attempt when the page keeps only the latest 50', async () => {
  const url = await startReceiver(500, '');
  await client().webhooks.create({ url, events: ['call.incoming'] });
  sandbox.simulateIncomingCall({ from: '+15557650001' });
  await sandbox.idle();
  const { deliverer } = consoleWorldOf(sandbox);
  for (let i = 0; i < 52; i++) {
    deliverer.resend('evt_00000001', url);
    await sandbox.idle();
  }
  const page = await openConsole();
  const row = eventRow(page, 'evt_00000001', url, 'wh_000001');
  await row.filter({ hasText: '53 attempts (the latest 50 shown)' }).waitFor();
  await row.getByText('Attempts, body and signature').click();
  const attempts = row.getByRole('list', { name: `Attempts of evt_00000001 to ${url} (wh_000001)` });
  expect(await attempts.locator('> li').first().textContent()).toMatch(/^#4 at /);
  expect(await attempts.locator('> li').last().textContent()).toMatch(/^#53 at /);
}, 60_000);

it('shows one row per registration when two share a URL, each with its webhook id, resent on its own', async () => {
  const url = await startReceiver(500, JSON.stringify({ error: 'handler_failed' }));
  const api = client();
  await api.webhooks.create({ url, events: ['call.incoming'] });
  await api.webhooks.create({ url, events: ['call.incoming'] });
  sandbox.simulateIncomingCall({ from: '+15557650001' });
  await sandbox.idle();
  const page = await openConsole();
  for (const webhookId of ['wh_000001', 'wh_000002']) {
    const row = eventRow(page, 'evt_00000001', url, webhookId);
    await row.filter({ hasText: 'failed: 500' }).filter({ hasText: '1 attempt,' }).waitFor();
    expect(await row.locator('.webhook-id').textContent()).toBe(webhookId);
  }
  await page.getByText('failing now: 2').waitFor();

  const second = eventRow(page, 'evt_00000001', url, 'wh_000002');
  await second.getByRole('button', { name: `Resend evt_00000001 to ${url} (wh_000002)` }).click();
  await second.filter({ hasText: '2 attempts' }).waitFor();
  await sandbox.idle();
  const attempts = sandbox.deliveries.map((delivery) => `${delivery.webhookId} #${delivery.attempt}`);
  expect(attempts.sort()).toEqual(['wh_000001 #1', 'wh_000002 #1', 'wh_000002 #2']);
  await eventRow(page, 'evt_00000001', url, 'wh_000001').filter({ hasText: '1 attempt,' }).waitFor();
}, 60_000);
