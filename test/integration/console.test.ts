/**
 * The sandbox console, used as a person would: real Chromium (on PATH or CHROMIUM_PATH: see
 * scripts/lib/chromium.ts; through playwright-core) on the page served by `listen({ console: true })`,
 * and real receivers on 127.0.0.1 that fail (500, a reset connection, silence, nothing listening) and
 * then recover; and the console as a bench for failure (faults listed, added and cleared, the
 * requests they hit marked, receivers' reasons). Playwright's locators wait for each change; nothing
 * sleeps.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import axe from 'axe-core';
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

type Answer = number | 'reset' | 'silent';

/** A receiver on 127.0.0.1 answering `answers` in order (a status, a dropped connection, silence), then 200. */
async function startReceiver(answers: Answer[] = [], port = 0) {
  const received: { body: string; signature: string; type: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const { type } = JSON.parse(body) as { type: string };
      received.push({ body, signature: String(req.headers['service-signature']), type });
      const answer = answers.shift() ?? 200;
      if (answer === 'reset') return req.socket.destroy();
      if (answer === 'silent') return;
      const reason = answer === 200 ? 'ok' : JSON.stringify({ error: 'database unavailable' });
      res.writeHead(answer, { 'content-type': 'application/json', 'x-receiver': 'test' }).end(reason);
    });
  });
  receivers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, answers };
}

/** A receiver on 127.0.0.1 that answers every delivery `status` with `body`. */
async function answeringReceiver(status: number, body: string) {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  receivers.push(receiver);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

/** A URL nothing listens on (a port just closed), and a way to start listening on it later. */
async function refusingUrl() {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return { url: `http://127.0.0.1:${port}/hooks`, recover: () => startReceiver([], port) };
}

function client(): TelephonyClient {
  return new TelephonyClient({ baseUrl: server.url, baseUrlV1: server.url, ...sandbox.credentials });
}

const requested: string[] = [];

async function openConsole(viewport = { width: 1280, height: 800 }): Promise<Page> {
  context = await browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(server.consoleUrl ?? '');
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  return page;
}

/** The row of event `eventId` to `url` for registration `webhookId`. */
const eventRow = (page: Page, eventId: string, url: string, webhookId = 'wh_000001') =>
  page.getByRole('listitem', { name: `${eventId} to ${url} (${webhookId})`, exact: true });

async function seriousViolations(page: Page) {
  // axe-core's own source from node_modules, run inside the page: nothing is fetched.
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const { violations } = await axe.run();
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
  });
}

// One browser for the file (starting Chromium is the slow part); a fresh context per test.
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
  sandbox = createSandbox({ deliveryTimeout: 500 });
  server = await sandbox.listen({ console: true });
  requested.length = 0;
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

it('shows each attempt’s answer, tells no-answer causes apart, groups attempts per event, filters, and resends', async () => {
  const receiver = await startReceiver([500, 'reset', 'silent']);
  const refusing = await refusingUrl();
  const api = client();
  await api.webhooks.create({ url: receiver.url, events: ['call.incoming', 'call.answered'] });
  await api.webhooks.create({ url: refusing.url, events: ['call.incoming'] });
  const page = await openConsole();

  for (const from of ['+15557650001', '+15557650002', '+15557650003']) {
    sandbox.simulateIncomingCall({ from });
    await sandbox.idle();
  }
  // Item 2: status, latency, headers and body of an answer; and why no answer came.
  const first = eventRow(page, 'evt_00000001', receiver.url);
  await first.filter({ hasText: 'failed: 500' }).filter({ hasText: 'retrying' }).waitFor();
  await eventRow(page, 'evt_00000002', receiver.url)
    .filter({ hasText: 'no answer: connection reset' })
    .waitFor();
  await eventRow(page, 'evt_00000003', receiver.url).filter({ hasText: 'no answer: timed out' }).waitFor();
  for (const id of ['evt_00000001', 'evt_00000002', 'evt_00000003']) {
    await eventRow(page, id, refusing.url, 'wh_000002')
      .filter({ hasText: 'no answer: connection refused' })
      .waitFor();
  }
  await page.getByText('failing now: 6').waitFor();
  await first.getByText('Attempts, body and signature').click();
  const attempt = first.getByRole('list', {
    name: `Attempts of evt_00000001 to ${receiver.url} (wh_000001)`,
  });
  expect(await attempt.textContent()).toMatch(/#1 at 09:00:00: failed: 500 in \d+ ms/);
  expect(await attempt.getByLabel('Response headers of attempt 1').textContent()).toContain(
    'x-receiver: test',
  );
  expect(await attempt.getByLabel('Response body of attempt 1').textContent()).toBe(
    '{"error":"database unavailable"}',
  );
  // Payloads pretty-printed; "Copy body" copies the exact body sent.
  const sent = receiver.received[0];
  expect(await first.locator('pre.payload').textContent()).toBe(
    JSON.stringify(JSON.parse(sent?.body ?? ''), null, 2),
  );
  await first
    .getByRole('button', { name: `Copy body of evt_00000001 to ${receiver.url} (wh_000001)` })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sent?.body);

  // Item 4: filters — URL, failed only, event type, call id.
  await page.getByLabel('URL', { exact: true }).selectOption(refusing.url);
  await expect.poll(() => page.locator('li.event:visible').count()).toBe(3);
  await page.getByLabel('URL', { exact: true }).selectOption('');
  await page.getByLabel('Call id', { exact: true }).fill('call_000002');
  await expect.poll(() => page.locator('li.event:visible').count()).toBe(2);
  await page.getByLabel('Call id', { exact: true }).fill('');

  // The receiver recovers: re-deliveries succeed, attempts stay grouped under their event.
  sandbox.simulateIncomingCall({ from: '+15557650004' });
  await page.getByLabel('Advance the clock by (seconds)').fill('10');
  await page.getByRole('button', { name: 'Advance' }).click();
  await first.filter({ hasText: 'delivered' }).filter({ hasText: '2 attempts' }).waitFor();
  await eventRow(page, 'evt_00000004', receiver.url).filter({ hasText: 'delivered' }).waitFor();
  await page.getByText('failing now: 4').waitFor(); // the refused URL's four
  expect(await page.locator('li.event').count()).toBe(8);
  await page.getByLabel('Failed only').check();
  await expect.poll(() => page.locator('li.event:visible').count()).toBe(4);
  await page.getByLabel('Failed only').uncheck();
  await page.getByLabel('Event type').selectOption('call.incoming');
  await expect.poll(() => page.locator('li.event:visible').count()).toBe(8);

  // Item 3: resend a delivered event; copy one as curl and run it; resend all failed.
  await first.getByRole('button', { name: `Resend evt_00000001 to ${receiver.url} (wh_000001)` }).click();
  await first.filter({ hasText: '3 attempts' }).waitFor();
  expect(await attempt.textContent()).toContain('(resent by hand)');
  const before = receiver.received.length;
  await first
    .getByRole('button', { name: `Copy as curl evt_00000001 to ${receiver.url} (wh_000001)` })
    .click();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  // The receiver runs in this process: the command runs beside it, never blocking it.
  await promisify(execFile)('sh', ['-c', curl], { timeout: 5_000 });
  const replayed = receiver.received.slice(before);
  expect(replayed).toHaveLength(1);
  expect(replayed[0]?.body).toBe(sent?.body);
  expect(replayed[0]?.signature).toBe(
    sandbox.deliveries.filter((d) => d.url === receiver.url && d.event.id === 'evt_00000001').at(-1)
      ?.signature,
  );

  const recovered = await refusing.recover();
  await page.getByRole('button', { name: 'Resend all failed' }).click();
  await page.getByText('failing now: 0').waitFor();
  expect(recovered.received.map((delivery) => delivery.type).sort()).toEqual(Array(4).fill('call.incoming'));
  expect(requested.every((url) => url.startsWith(`${server.url}/_console/`))).toBe(true);
}, 60_000);

it('keeps an expanded row open, focus on its control and the scroll position while records arrive', async () => {
  const receiver = await startReceiver();
  await client().webhooks.create({ url: receiver.url, events: ['call.incoming'] });
  for (let i = 0; i < 8; i++) sandbox.simulateIncomingCall({ from: `+1555765000${i}` });
  await sandbox.idle();
  const page = await openConsole({ width: 1280, height: 600 });
  const row = eventRow(page, 'evt_00000003', receiver.url);
  await row.getByText('Attempts, body and signature').click();
  const copyCurl = row.getByRole('button', {
    name: `Copy as curl evt_00000003 to ${receiver.url} (wh_000001)`,
  });
  await copyCurl.focus();
  await row.evaluate((node) => node.scrollIntoView({ block: 'center' }));
  const top = (await row.boundingBox())?.y;
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

  for (let i = 0; i < 3; i++) sandbox.simulateIncomingCall({ from: `+1555765100${i}` });
  await sandbox.idle();
  await eventRow(page, 'evt_00000011', receiver.url).waitFor({ state: 'attached' });
  await page.getByRole('listitem', { name: 'call_000011 ringing' }).waitFor({ state: 'attached' });

  expect(await row.locator('details').evaluate((node) => (node as HTMLDetailsElement).open)).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
    `Copy as curl evt_00000003 to ${receiver.url} (wh_000001)`,
  );
  expect(Math.abs(((await row.boundingBox())?.y ?? 0) - (top ?? 0))).toBeLessThanOrEqual(2);
}, 60_000);

it('answers, misses and sends to voicemail a ringing call, places a call, and lists, tests and deletes webhooks', async () => {
  const receiver = await startReceiver();
  const api = client();
  // An app run twice registers its webhook twice: every event would arrive twice.
  await api.webhooks.create({ url: receiver.url, events: ['call.incoming'] });
  await api.webhooks.create({ url: receiver.url, events: ['call.incoming'] });
  const page = await openConsole();
  const webhooks = page.locator('#webhooks');
  await webhooks.getByText('This URL is registered 2 times').first().waitFor();

  for (const [verb, status] of [
    ['Answer', 'answered'],
    ['Miss', 'missed'],
    ['Voicemail', 'voicemail'],
  ] as const) {
    const { id } = sandbox.simulateIncomingCall({ from: '+15557654321' });
    await page.getByRole('button', { name: `${verb} ${id}`, exact: true }).click();
    await page.getByRole('listitem', { name: `${id} ${status}` }).waitFor();
  }
  await page.getByLabel('Number to call').fill('+14155550123');
  await page.getByRole('button', { name: 'Place outbound call' }).click();
  await page.getByRole('listitem', { name: 'call_000004 initiating' }).waitFor();

  await page.getByRole('button', { name: 'Send a test event to wh_000002' }).click();
  await page.getByRole('status').filter({ hasText: 'Test event' }).waitFor();
  await sandbox.idle();
  expect(receiver.received.filter((delivery) => delivery.type === 'webhook.test')).toHaveLength(1);
  await page.getByRole('button', { name: 'Delete wh_000002' }).click();
  await page.getByRole('button', { name: 'Delete wh_000002' }).waitFor({ state: 'detached' });
  expect(await webhooks.getByText('registered 2 times').count()).toBe(0);
  expect(sandbox.webhooks.map((webhook) => webhook.id)).toEqual(['wh_000001']);
}, 60_000);

it('puts deliveries above the fold at 1280×800, clears its notice, passes axe, and shows status on a 390 px phone', async () => {
  const receiver = await startReceiver([500]);
  await client().webhooks.create({ url: receiver.url, events: ['call.incoming'] });
  sandbox.simulateIncomingCall({ from: '+15557654321' });
  await sandbox.idle();
  const page = await openConsole();
  const row = eventRow(page, 'evt_00000001', receiver.url);
  await row.filter({ hasText: 'failed: 500' }).waitFor();
  for (const shown of [
    page.getByRole('heading', { name: 'Webhook deliveries' }),
    page.getByText('failing now: 1'),
    row.locator('.badge'),
    row.getByRole('button', { name: /^Resend/ }),
    page.getByRole('button', { name: 'Simulate incoming call' }),
    page.getByRole('heading', { name: 'Calls', exact: true }),
  ]) {
    const box = await shown.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(800);
  }
  await row.getByText('Attempts, body and signature').click();
  expect(await seriousViolations(page)).toEqual([]);

  // A notice clears: on its own after a few seconds, or dismissed.
  await page.clock.install();
  await page.getByRole('button', { name: 'Simulate incoming call' }).click();
  const notice = page.locator('#notice');
  await notice.filter({ hasText: 'Incoming call call_000002' }).waitFor();
  await page.clock.fastForward(7_000);
  await expect.poll(() => notice.textContent()).toBe('');
  await page
    .getByRole('button', { name: /^Resend/ })
    .first()
    .click();
  await notice.filter({ hasText: 'Resending' }).waitFor();
  await page.getByRole('button', { name: 'Dismiss the notice' }).click();
  await expect.poll(() => notice.textContent()).toBe('');

  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const badge = await row.locator('.badge').boundingBox();
  const status = await row.locator('.answer').boundingBox();
  for (const box of [badge, status]) {
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 999) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  }
  const small = await page.$$eval('button, select, input:not([type="checkbox"]), summary', (controls) =>
    controls
      .filter((control) => (control as HTMLElement).offsetParent !== null)
      .map((control) => ({ control, box: control.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ control, box }) => `${control.id || control.textContent}: ${box.width}×${box.height}`),
  );
  expect(small).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
}, 60_000);

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
}, 60_000);

it('keeps a bounded history on the page', async () => {
  const page = await openConsole();
  for (let i = 0; i < 230; i++) await sandbox.fetch('http://sandbox.test/v2/calls/recent');
  await page.locator('#requests tbody tr').nth(199).waitFor();
  await page.locator('#requests tbody tr').first().filter({ hasText: '401' }).waitFor();
  await expect.poll(() => page.locator('#requests tbody tr').count()).toBe(200);
}, 60_000);

// ——— The console as a bench for failure: faults, reasons, counts under filters, registrations ———

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

  const api = new TelephonyClient({ baseUrl: server.url, ...sandbox.credentials, maxRetries: 0 });
  await expect(api.calls.create({ to: '+14155550123' })).rejects.toBeInstanceOf(APIConnectionError);
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
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Clear fault_2' }).click();
  await page.getByRole('button', { name: 'Clear fault_2' }).waitFor({ state: 'detached' });
  expect(sandbox.faults.map((fault) => fault.id)).toEqual(['fault_3']);
  await page.getByRole('button', { name: 'Clear all faults' }).click();
  await page.getByText('None in force.').waitFor();
  expect(sandbox.faults).toEqual([]);
}, 60_000);

it('shows a failing receiver’s reason, escaped and bounded; failing now follows the filters; the URL filter shows whole URLs', async () => {
  const refusing = await answeringReceiver(401, JSON.stringify({ error: 'signature_mismatch' }));
  const shouting = await answeringReceiver(500, `<b>down</b>${'x'.repeat(300)}`);
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
  const url = await answeringReceiver(500, '');
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
  const url = await answeringReceiver(500, JSON.stringify({ error: 'handler_failed' }));
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
