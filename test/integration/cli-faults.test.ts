import { APIConnectionError, TelephonyClient } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { runScript } from './child.js';
import { expectToSurvive } from './server-survival.js';

const cli = (...args: string[]) => runScript('src/testing/cli.ts', args);

/** Starts the CLI on a free port; answers the run, its base URL and a client on the printed credentials. */
async function startCli(...args: string[]) {
  const run = cli('--port', '0', ...args);
  const stdout = await run.printed('Ctrl+C to stop.');
  const [, baseUrl = '', clientId = '', clientSecret = ''] =
    /export TELEPHONY_BASE_URL=(\S+) TELEPHONY_CLIENT_ID=(\S+) TELEPHONY_CLIENT_SECRET=(\S+)/.exec(stdout) ??
    [];
  const client = new TelephonyClient({ baseUrl, baseUrlV1: baseUrl, clientId, clientSecret, maxRetries: 0 });
  const type = (line: string) => run.child.stdin?.write(`${line}\n`);
  return { run, stdout, baseUrl, client, type };
}

describe('telephony-sandbox CLI: faults, survival, CORS', () => {
  it('prints the callback secret; survives TRACE, CONNECT, an unknown method and //[ and serves the next request', async () => {
    const { run, baseUrl, stdout } = await startCli();
    expect(stdout).toContain('  callback secret:        sandbox_callback_secret');
    await expectToSurvive(Number(new URL(baseUrl).port));
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
    expect(run.output().stderr).toBe('');
  }, 20_000);

  it('fault, faults and faults clear: a dropped create is logged as the fault’s, and placed the call', async () => {
    const { run, client, type } = await startCli();
    type('fault POST /v2/calls drop_after 1');
    await run.printed('fault_1 POST /v2/calls drop_after, 0 hits of 1');
    await expect(client.calls.create({ to: '+14155550123' })).rejects.toBeInstanceOf(APIConnectionError);
    await run.printed('POST /v2/calls no answer sandbox_client_id fault fault_1 drop_after');
    expect((await client.calls.listRecent()).items).toHaveLength(1);

    type('fault /v2/calls/* status 3 status=503');
    await run.printed('fault_2 any /v2/calls/* status 503, 0 hits of 3');
    await expect(client.calls.listRecent()).rejects.toMatchObject({ status: 503 });
    type('faults');
    await run.printed('fault_2 any /v2/calls/* status 503, 1 hit of 3');
    type('faults clear');
    await run.printed('cleared 1 fault');
    expect((await client.calls.listRecent()).items).toHaveLength(1);
    type('faults');
    await run.printed('no faults in force');
    type('fault /v2/calls explode');
    type('fault /v2/calls delay');
    type('faults clear fault_9');
    await expect.poll(() => run.output().stderr.trim().split('\n').length).toBe(3);
    expect(run.output().stderr.trim().split('\n')).toEqual([
      'error: unknown kind "explode"; use status, rate_limit, drop_before, drop_after, delay, hang',
      'error: delayMs (ms) is required: a whole number ≥ 0',
      'error: no fault fault_9 in force',
    ]);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
  }, 20_000);

  it('--cors allows local pages and refuses others', async () => {
    const { run, baseUrl } = await startCli('--cors');
    const preflight = (origin: string) =>
      fetch(`${baseUrl}/v2/calls/recent`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    const local = await preflight('http://localhost:5173');
    expect([local.status, local.headers.get('access-control-allow-origin')]).toEqual([
      204,
      'http://localhost:5173',
    ]);
    const foreign = await preflight('https://evil.example');
    expect([foreign.status, foreign.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    await foreign.arrayBuffer();
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
  }, 20_000);

  it('without --cors a preflight gets no CORS headers', async () => {
    const { run, baseUrl } = await startCli();
    const pre = await fetch(`${baseUrl}/v2/calls/recent`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    await pre.arrayBuffer();
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
  }, 20_000);
});
