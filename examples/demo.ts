/**
 * `npm run demo`: a tour of the SDK against the sandbox over real HTTP on 127.0.0.1 — no account,
 * no network beyond loopback. The sandbox clock is moved forward by the demo instead of waiting,
 * so the whole story takes about a second. On the way a call goes through every state the sandbox
 * has: initiating, ringing, answered, transferring, completed, ended, missed and voicemail.
 */
import { createServer } from 'node:http';
import { NotFoundError, TelephonyClient, ValidationError } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';
import { type WebhookEventType, WebhookReceiver } from 'telephony-sdk/webhooks';

const line = (text: string) => console.log(text);
const step = (title: string) => console.log(`\n== ${title}`);

// Start at the wall clock so the receiver's 300 s signature tolerance holds.
const sandbox = createSandbox({ clock: { start: Date.now() } });
const service = await sandbox.listen();
const started = sandbox.clock.now();
const elapsed = () => `${(sandbox.clock.now() - started) / 1000} s`.padStart(6);

const secret = 'demo_webhook_secret';
const events = [
  'call.incoming',
  'call.answered',
  'call.transferred',
  'call.missed',
  'voicemail.new',
  'call.ended',
] satisfies WebhookEventType[];
const receiver = new WebhookReceiver({ secret });
// Each of these events carries the call it is about, typed, in data.call.
const printCall = (event: { type: string; data: { call: { id: string; status: string } } }) =>
  line(`  webhook ${event.type.padEnd(16)} ${event.data.call.id} → ${event.data.call.status}`);
for (const type of events) receiver.on(type, printCall);
const hooks = createServer(receiver.nodeHandler);
await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
const address = hooks.address();
const hooksUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhooks`;

const client = new TelephonyClient({
  baseUrl: service.url,
  baseUrlV1: service.url,
  ...sandbox.credentials,
  // The SDK's waits (Retry-After, backoff) move sandbox time instead of sleeping.
  clock: sandbox.clientClock,
});
client.on('token', ({ expires_in, scope }) =>
  line(`  token obtained: expires in ${expires_in} s, scope "${scope}"`),
);

/** Prints where a call stands, as `client.calls.get` reads it, and the sandbox time. */
async function show(callId: string, note = ''): Promise<void> {
  const { status } = await client.calls.get(callId);
  line(`  [${elapsed()}] ${callId}: ${status}${note}`);
}

try {
  step(`Sandbox on ${service.url}, webhook receiver on ${hooksUrl}`);
  const webhook = await client.webhooks.create({ url: hooksUrl, events, secret });
  line(`  registered ${JSON.stringify(webhook)}`);

  step('An outbound call, transferred, then hung up');
  const call = await client.calls.create({ to: '+15551234567', custom_data: { ticket: 'T-1001' } });
  line(`  [${elapsed()}] ${call.id}: ${call.status} (placed to ${call.to?.number})`);
  await sandbox.advance(1_000);
  await show(call.id);
  await sandbox.advance(4_000);
  await show(call.id);
  const transfer = await client.calls.transfer(call.id, { to: '+15559870000', type: 'attended' });
  line(
    `  [${elapsed()}] ${call.id}: ${transfer.status} (to ${transfer.transfer_to}, ${transfer.transfer_type})`,
  );
  await sandbox.advance(2_000);
  await show(call.id, ' (at the new end)');
  await sandbox.advance(10_000);
  const ended = await client.calls.end(call.id);
  await sandbox.idle();
  line(`  [${elapsed()}] ${call.id}: ${ended.status} (hung up)`);
  const detail = await client.calls.get(call.id);
  line(
    `  duration ${detail.duration} s, transferred ${detail.transferred}, custom_data ${JSON.stringify(detail.custom_data)}`,
  );

  step('An outbound call that completes by itself (the far end hangs up after 30 s of talk)');
  const second = await client.calls.create({ to: '+15551230000' });
  line(`  [${elapsed()}] ${second.id}: ${second.status}`);
  await sandbox.advance(35_000);
  await show(second.id, ` after ${(await client.calls.get(second.id)).duration} s of talk`);

  step('Incoming calls: one missed, one sent to voicemail');
  const missed = sandbox.simulateIncomingCall({ from: '+15557654321', fromName: 'Grace' });
  await sandbox.idle();
  await show(missed.id);
  sandbox.missCall(missed.id);
  await sandbox.idle();
  await show(missed.id);
  const voicemail = sandbox.simulateIncomingCall({ from: '+15557650000', fromName: 'Alan' });
  sandbox.voicemailCall(voicemail.id);
  await sandbox.idle();
  await show(voicemail.id);

  step('Errors, caught by class');
  try {
    await client.calls.get('call_999999');
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    line(`  NotFoundError: status ${error.status}, code ${error.code}`);
    line(`    ${error.message}`);
  }
  try {
    await client.calls.create({ to: '555-0100' });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const fields = error.issues.map((issue) => issue.path).join(', ');
    line(`  ValidationError (nothing was sent): field ${fields}`);
    line(`    ${error.message}`);
  }

  step('Recent calls, two per page (await one page, then getNextPage)');
  let page = await client.calls.listRecent({ limit: 2 });
  for (let number = 1; ; number++) {
    const calls = page.items.map((recent) => `${recent.id} ${recent.direction} ${recent.status}`);
    line(`  page ${number}: ${calls.join(', ')}`);
    if (!page.hasNextPage()) break;
    page = await page.getNextPage();
  }

  step('Stats by day');
  const day = new Date(sandbox.clock.now()).toISOString().slice(0, 10);
  const stats = await client.stats.calls({ from: day, to: day, group_by: 'day' });
  line(`  total ${stats.total_calls}, answered ${stats.answered_calls}, missed ${stats.missed_calls}`);
  line(`  by_day ${JSON.stringify(stats.by_day)}`);

  step('Users (v1), every page with for await');
  const user = await client.users.create({ name: 'Ada Lovelace', email: 'ada@example.test', role: 'admin' });
  line(`  created ${user.id} ${user.name} (${user.status})`);
  const updated = await client.users.update(user.id, { status: 'active', department: 'Engines' });
  line(`  updated ${updated.id}: ${updated.status}, ${updated.department}`);
  for await (const listed of client.users.list({ per_page: 10 })) {
    line(`  listed ${listed.id} ${listed.email} ${listed.role}/${listed.status}`);
  }
  const deleted = await client.users.delete(user.id);
  line(`  deleted: ${JSON.stringify(deleted)}`);

  const statuses = [...new Set(sandbox.deliveries.map((d) => d.status))].join(', ');
  step(`Done: ${sandbox.deliveries.length} webhook deliveries, answered ${statuses}`);
  line('  Next: npx tsx examples/calls-list.ts (every file in examples/ runs the same way),');
  line('  and docs/sandbox.md to use the sandbox in your own tests.');
} finally {
  sandbox.close();
  await service.close();
  await new Promise((resolve) => hooks.close(resolve));
}
