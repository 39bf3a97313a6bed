import { readdirSync } from 'node:fs';
import { signWebhook } from 'telephony-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import type { CallStatus } from '../../src/testing/calls.js';
import { runScript } from './child.js';
import { serveSandbox } from './helpers.js';

const V1_WARNING = /^\[telephony-sdk\] warning v1_deprecated: API v1 /;

/** Runs `npx tsx examples/<name>.ts` as the README says, and returns its output once it exited 0. */
async function example(name: string, env: Record<string, string | undefined> = {}) {
  const run = runScript(`examples/${name}.ts`, [], { TELEPHONY_BASE_URL: undefined, ...env });
  const [code] = await run.exited;
  const { stdout, stderr } = run.output();
  // The one line an example may print there: the client's default logger (level 'warn') reports
  // v1's deprecation once, at a client's first v1 call (API.md, Events and Logs).
  const other = stderr.split('\n').filter((line) => line !== '' && !V1_WARNING.test(line));
  expect({ code, other }).toEqual({ code: 0, other: [] });
  return stdout;
}

/** Every state a call can reach in the sandbox: the demo's transcript must show each. */
const SANDBOX_STATES = [
  'initiating',
  'ringing',
  'answered',
  'transferring',
  'completed',
  'ended',
  'missed',
  'voicemail',
] satisfies CallStatus[];
// A state added to the sandbox fails typecheck here until the list (and so the demo) has it.
const everyState: Exclude<CallStatus, (typeof SANDBOX_STATES)[number]> extends never ? true : never = true;

const CLIENT_EXAMPLES = [
  'calls-list',
  'calls-create-end',
  'calls-transfer',
  'stats',
  'users',
  'webhooks-register',
];
const RECEIVER_EXAMPLES = ['webhooks-fetch', 'webhooks-node-http'];
/** A Cloudflare Worker, not a script: `npm run test:runtimes -- workerd edge` serves and checks it. */
const WORKER_EXAMPLES = ['worker'];

// The examples are the first code a new user runs: each must work from a clone, as documented.
describe('examples', () => {
  it('every file in examples/ is run below (env.ts is the module they share)', () => {
    const files = readdirSync(new URL('../../examples', import.meta.url)).filter((f) => f.endsWith('.ts'));
    expect(files.sort()).toEqual(
      ['demo', 'env', ...CLIENT_EXAMPLES, ...RECEIVER_EXAMPLES, ...WORKER_EXAMPLES]
        .map((name) => `${name}.ts`)
        .sort(),
    );
    expect(everyState).toBe(true);
  });

  it('npm run demo: a call through every state, a transfer, errors caught, paging, stats, users, webhooks', async () => {
    const stdout = await example('demo');
    for (const state of SANDBOX_STATES) expect(stdout).toMatch(new RegExp(`\\] call_\\d{6}: ${state}\\b`));
    const transcript = [
      // The transfer, and the webhooks the receiver verified for it.
      /call_000001: transferring \(to \+15559870000, attended\)/,
      /webhook call\.answered +call_000001 → answered/,
      /webhook call\.transferred +call_000001 → answered/,
      'duration 12 s, transferred true, custom_data {"ticket":"T-1001"}',
      // A call that completes by itself, and one sent to voicemail.
      /webhook call\.ended +call_000002 → completed/,
      'call_000002: completed after 30 s of talk',
      /webhook voicemail\.new +call_000004 → voicemail/,
      // Errors caught with instanceof, code and message printed.
      'NotFoundError: status 404, code not_found',
      'No call with id call_999999',
      'ValidationError (nothing was sent): field to',
      'to must be an E.164 number',
      // Paging that shows its pages.
      'page 1: call_000004 inbound voicemail, call_000003 inbound missed',
      'page 2: call_000002 outbound completed, call_000001 outbound ended',
      'total 4, answered 2, missed 1',
      'deleted: {"deleted":true,"id":"usr_000001"}',
      '== Done: 10 webhook deliveries, answered 200',
    ];
    for (const shown of transcript) expect(stdout).toMatch(shown); // a string: contained as is
  }, 30_000);

  it('each client example runs against the in-process sandbox (no environment)', async () => {
    const [list, created, transfer, stats, users, registered] = await Promise.all(
      CLIENT_EXAMPLES.map((name) => example(name)),
    );
    expect(list).toContain('first page: 2 calls');
    expect(list).toMatch(/\+15557654321 → \+15550100000 answered/);
    expect(created).toMatch(/ended \{\s+id: 'call_\d+',\s+status: 'ended'/);
    expect(transfer).toContain("transfer_type: 'attended'");
    // The in-process sandbox starts at the wall clock, so "the last 7 days" holds the seeded calls.
    expect(stats).toContain('2 calls, 1 answered');
    expect(users).toMatch(/deleted \{ deleted: true, id: 'usr_\d+' \}/);
    expect(registered).toContain("events: [ 'call.incoming', 'call.answered', 'call.ended' ]");
    expect(registered).toContain("signed with the examples' shared secret");
  }, 60_000);

  it('the client examples read TELEPHONY_* and work against a server on 127.0.0.1', async () => {
    const { server, sandbox } = await serveSandbox();
    // "1 calls" below (not the in-process sandbox's 2 seeded calls) shows the examples used the server.
    const env = {
      TELEPHONY_BASE_URL: server.url,
      TELEPHONY_CLIENT_ID: sandbox.credentials.clientId,
      TELEPHONY_CLIENT_SECRET: sandbox.credentials.clientSecret,
      TELEPHONY_API_KEY: sandbox.credentials.apiKey,
    };
    const created = await example('calls-create-end', env);
    const users = await example('users', env);
    const list = await example('calls-list', env);
    expect(created).toMatch(/placed call_000001 initiating/);
    expect(users).toMatch(/deleted \{ deleted: true, id: 'usr_000001' \}/);
    expect(list).toContain('first page: 1 calls');
  }, 60_000);

  it('webhooks-fetch: its own sandbox delivers into the fetch handler, then verifyWebhook checks one', async () => {
    const stdout = await example('webhooks-fetch');
    expect(stdout).toContain('incoming call from +15551234567');
    // Deliveries run side by side: the receiver may hear them in either order (as the service's may).
    expect(stdout).toMatch(/^event call\.incoming evt_\d+$/m);
    expect(stdout).toMatch(/^event call\.missed evt_\d+$/m);
    expect(stdout).toContain('receiver answered 200\nreceiver answered 200');
    expect(stdout).toMatch(/verified evt_\d+ ringing/);
  }, 30_000);

  it('webhooks-node-http: the tour delivers a call to the receiver over HTTP, then the process exits', async () => {
    const stdout = await example('webhooks-node-http');
    expect(stdout).toMatch(/receiving webhooks on http:\/\/127\.0\.0\.1:\d+\/webhooks/);
    expect(stdout).toMatch(/incoming call call_\d+ from \+15550001111/);
    for (const type of ['call.incoming', 'call.answered', 'call.ended'])
      expect(stdout).toContain(`event ${type} evt_`);
    expect(stdout).toContain('tour done: 3 deliveries, answered 200, 200, 200');
  }, 30_000);

  it('webhooks-register and webhooks-node-http chain on one service: one shared secret signs and verifies', async () => {
    // The receiver checks signatures against the wall clock: the service's clock starts there.
    const { server, sandbox } = await serveSandbox({ clock: { start: Date.now() } });
    const env = {
      TELEPHONY_BASE_URL: server.url,
      TELEPHONY_CLIENT_ID: sandbox.credentials.clientId,
      TELEPHONY_CLIENT_SECRET: sandbox.credentials.clientSecret,
      TELEPHONY_API_KEY: sandbox.credentials.apiKey,
      // Neither is given a secret: they share the examples' default.
      TELEPHONY_WEBHOOK_SECRET: undefined,
    };
    const receiver = runScript('examples/webhooks-node-http.ts', [], { ...env, PORT: '0' });
    const url = /receiving webhooks on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/.exec(
      await receiver.printed('receiving webhooks on'),
    )?.[1];
    expect(url).toBeDefined();
    await example('webhooks-register', { ...env, WEBHOOK_URL: url });
    expect(sandbox.webhooks.map((webhook) => webhook.url)).toEqual([url]);

    const call = sandbox.simulateIncomingCall({ from: '+15550002222' });
    await sandbox.idle();
    expect(sandbox.deliveries.map((delivery) => delivery.status)).toEqual([200]);
    await receiver.printed(`incoming call ${call.id} from +15550002222`);

    // A delivery signed with any other secret is refused.
    const body = sandbox.deliveries[0]?.body ?? '';
    const forged = await fetch(url ?? '', {
      method: 'POST',
      headers: { 'service-signature': await signWebhook(body, 'whsec_other') },
      body,
    });
    expect(forged.status).toBe(401);
    // With a service to deliver to, the receiver listens until stopped.
    expect(receiver.child.exitCode).toBeNull();
    receiver.child.kill('SIGTERM');
    await receiver.exited;
    expect(receiver.output().stderr).toContain('refused (401): signature_mismatch');
  }, 30_000);
});
