/**
 * `npm run demo`: an example app against the sandbox over real HTTP on 127.0.0.1 — no account,
 * no network beyond loopback. The sandbox clock is moved forward by the demo instead of waiting,
 * so the whole story takes about a second.
 */
import { createServer } from 'node:http';
import { TelephonyClient } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';
import { WebhookReceiver } from 'telephony-sdk/webhooks';

const line = (text: string) => console.log(text);
const step = (title: string) => console.log(`\n== ${title}`);

// Start at the wall clock so the receiver's 300 s signature tolerance holds.
const sandbox = createSandbox({ clock: { start: Date.now() } });
const service = await sandbox.listen();

const secret = 'demo_webhook_secret';
const receiver = new WebhookReceiver({ secret });
for (const type of [
  'call.incoming',
  'call.answered',
  'call.missed',
  'call.ended',
  'call.transferred',
] as const) {
  receiver.on(type, async (event) => {
    const call = (event.data as { call: { id: string; status: string } }).call;
    line(`  webhook ${event.type.padEnd(16)} ${call.id} → ${call.status}`);
  });
}
const hooks = createServer(receiver.nodeHandler);
await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
const address = hooks.address();
const hooksUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhooks`;

const client = new TelephonyClient({
  baseUrl: service.url,
  baseUrlV1: service.url,
  ...sandbox.credentials,
  // The SDK's waits (Retry-After, backoff) move sandbox time instead of sleeping.
  clock: { now: () => sandbox.clock.now(), sleep: (ms) => sandbox.advance(ms) },
});
client.on('token', ({ expires_in, scope }) =>
  line(`  token obtained: expires in ${expires_in} s, scope "${scope}"`),
);

try {
  step(`Sandbox on ${service.url}, webhook receiver on ${hooksUrl}`);
  const webhook = await client.webhooks.create({
    url: hooksUrl,
    events: ['call.incoming', 'call.answered', 'call.missed', 'call.ended', 'call.transferred'],
    secret,
    description: 'demo receiver',
  });
  // The spec does not show this answer; the sandbox's is { webhook: { id, url, events, … } }.
  const registered = (webhook as { webhook?: { id?: string; events?: string[] } }).webhook;
  line(`  webhook ${registered?.id} registered for ${registered?.events?.join(', ')}`);

  step('Place a call');
  const call = await client.calls.create({ to: '+15551234567', custom_data: { ticket: 'T-1001' } });
  line(`  ${call.id} to ${call.to?.number}: ${call.status}`);
  await sandbox.advance(5_000);
  line(`  after 5 s: ${(await client.calls.get(call.id)).status}`);
  await sandbox.advance(12_000);
  const ended = await client.calls.end(call.id);
  line(`  after 17 s, hung up: ${ended.status} at ${ended.ended_at}`);
  const detail = await client.calls.get(call.id);
  line(`  duration ${detail.duration} s, custom_data ${JSON.stringify(detail.custom_data)}`);

  step('An incoming call, missed');
  const incoming = sandbox.simulateIncomingCall({ from: '+15557654321', fromName: 'Grace' });
  await sandbox.idle();
  sandbox.missCall(incoming.id);
  await sandbox.idle();

  step('Recent calls (for await walks every page)');
  for await (const recent of client.calls.listRecent({ limit: 1 })) {
    line(
      `  ${recent.timestamp} ${recent.direction.padEnd(8)} ${recent.status.padEnd(9)} ${recent.duration} s`,
    );
  }

  step('Stats by day');
  const day = new Date(sandbox.clock.now()).toISOString().slice(0, 10);
  const stats = await client.stats.calls({ from: day, to: day, group_by: 'day' });
  line(`  total ${stats.total_calls}, answered ${stats.answered_calls}, missed ${stats.missed_calls}`);
  line(`  by_day ${JSON.stringify(stats.by_day)}`);

  step('Users (v1)');
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
