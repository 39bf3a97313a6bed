import { signWebhook } from 'telephony-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { runScript } from './child.js';
import { serveSandbox } from './helpers.js';

/** Runs `npx tsx examples/<name>.ts` as the README says, and returns its output once it exited 0. */
async function example(name: string, env: Record<string, string | undefined> = {}) {
  const run = runScript(`examples/${name}.ts`, [], { TELEPHONY_BASE_URL: undefined, ...env });
  const [code] = await run.exited;
  const { stdout, stderr } = run.output();
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return stdout;
}

// The examples are the first code a new user runs: each must work from a clone, as documented.
describe('examples', () => {
  it('npm run demo: places, ends and lists calls, reads stats, administers users, delivers 4 webhooks', async () => {
    const stdout = await example('demo');
    expect(stdout).toMatch(/webhook call\.answered +call_000001 → answered/);
    expect(stdout).toContain('duration 12 s, custom_data {"ticket":"T-1001"}');
    expect(stdout).toContain('total 2, answered 1, missed 1');
    expect(stdout).toContain('deleted: {"deleted":true,"id":"usr_000001"}');
    expect(stdout).toContain('== Done: 4 webhook deliveries, answered 200');
  }, 30_000);

  it('each client example runs against the in-process sandbox (no environment)', async () => {
    const [list, created, transfer, stats, users, registered] = await Promise.all(
      ['calls-list', 'calls-create-end', 'calls-transfer', 'stats', 'users', 'webhooks-register'].map(
        (name) => example(name),
      ),
    );
    expect(list).toContain('first page: 2 calls');
    expect(list).toMatch(/\+15557654321 → \+15550100000 answered/);
    expect(created).toMatch(/ended \{\s+id: 'call_\d+',\s+status: 'ended'/);
    expect(transfer).toContain("transfer_type: 'attended'");
    // The in-process sandbox starts at the wall clock, so "the last 7 days" holds the seeded calls.
    expect(stats).toContain('2 calls, 1 answered');
    expect(users).toMatch(/deleted \{ deleted: true, id: 'usr_\d+' \}/);
    expect(registered).toContain("events: [ 'call.incoming', 'call.ended' ]");
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

  it('webhooks-fetch verifies a signed request with the receiver and with verifyWebhook', async () => {
    const stdout = await example('webhooks-fetch');
    expect(stdout).toContain('receiver answered 200');
    expect(stdout).toContain('verified evt_example ringing');
  }, 30_000);

  it('webhooks-node-http answers a signed delivery 200 and one signed with another secret 401', async () => {
    const run = runScript('examples/webhooks-node-http.ts', [], {
      PORT: '0',
      TELEPHONY_WEBHOOK_SECRET: 'whsec_test',
    });
    const url = /receiving webhooks on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(
      await run.printed('receiving webhooks on'),
    )?.[1];
    expect(url).toBeDefined();
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'call.incoming',
      created_at: new Date().toISOString(),
      data: { call: { id: 'call_9', from: { number: '+15550001111' }, status: 'ringing' } },
    });
    const post = (signature: string) =>
      fetch(url ?? '', { method: 'POST', headers: { 'service-signature': signature }, body });
    expect((await post(await signWebhook(body, 'whsec_test'))).status).toBe(200);
    expect((await post(await signWebhook(body, 'whsec_other'))).status).toBe(401);
    await run.printed('event call.incoming evt_1');
    expect(run.output().stdout).toContain('incoming call call_9 from +15550001111');
    run.child.kill('SIGTERM');
    await run.exited;
    expect(run.output().stderr).toContain('refused (401): signature_mismatch');
  }, 30_000);
});
