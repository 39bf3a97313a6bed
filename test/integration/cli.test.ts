import { once } from 'node:events';
import { createServer } from 'node:net';
import { TelephonyClient } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { runScript } from './child.js';
import { rawTokenRequest } from './raw-http.js';

/** `telephony-sandbox <args>` from the source, as `npx telephony-sandbox` runs the built bin. */
const cli = (...args: string[]) => runScript('src/testing/cli.ts', args);

describe('telephony-sandbox CLI', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '--port 0 prints a loopback URL and credentials that work with the SDK, and stops on %s',
    async (signal) => {
      const run = cli('--port', '0');
      const stdout = await run.printed('Ctrl+C to stop.');

      const exported =
        /export TELEPHONY_BASE_URL=(\S+) TELEPHONY_CLIENT_ID=(\S+) TELEPHONY_CLIENT_SECRET=(\S+) TELEPHONY_API_KEY=(\S+)/.exec(
          stdout,
        );
      expect(exported).not.toBeNull();
      const [, baseUrl = '', clientId = '', clientSecret = '', apiKey = ''] = exported ?? [];
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(baseUrl).not.toBe('http://127.0.0.1:4010');
      // The base URL shown for the client is the bare origin: the SDK appends /v2 and /v1 itself.
      expect(stdout).toContain(`baseUrl and baseUrlV1:  ${baseUrl}\n`);
      expect(stdout).toContain(`new TelephonyClient({ baseUrl: '${baseUrl}', baseUrlV1: '${baseUrl}',`);

      // examples/ comes with a clone of the repository, not with the npm package the bin is from.
      expect(stdout).toContain("In a clone of the SDK's repository (examples/ is not in the npm package)");

      const client = new TelephonyClient({ baseUrl, baseUrlV1: baseUrl, clientId, clientSecret, apiKey });
      const calls = await client.calls.listRecent();
      expect(calls.items).toEqual([]);
      expect(calls.pagination).toEqual({ total: 0, limit: 20, offset: 0, has_more: false });
      const users = await client.users.list();
      expect(users.pagination).toEqual({ total: 0, page: 1, per_page: 10, pages: 0 });

      run.child.kill(signal);
      expect(await run.exited).toEqual([0, null]);
      expect(run.output().stderr).toBe('');
    },
    20_000,
  );

  it('answers only its own host names: the printed credentials get nothing through a DNS-rebound name', async () => {
    const run = cli('--port', '0');
    const stdout = await run.printed('Ctrl+C to stop.');
    const [, baseUrl = '', clientId = '', clientSecret = ''] =
      /export TELEPHONY_BASE_URL=(\S+) TELEPHONY_CLIENT_ID=(\S+) TELEPHONY_CLIENT_SECRET=(\S+)/.exec(
        stdout,
      ) ?? [];
    const port = Number(new URL(baseUrl).port);
    const token = (host: string) => rawTokenRequest(port, host, clientId, clientSecret);
    const rebound = await token(`evil.test:${port}`);
    expect([rebound.status, JSON.parse(rebound.body).code]).toEqual([403, 'forbidden']);
    expect((await token(`127.0.0.1:${port}`)).status).toBe(200);
    // The refused request reached no route: the log shows only the accepted one.
    await run.printed('POST /v2/oauth/token 200');
    expect(run.output().stdout).not.toContain('POST /v2/oauth/token 403');

    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
  }, 20_000);

  it('--help explains the options and exits 0 without listening', async () => {
    const run = cli('--help');
    const [code] = await run.exited;
    expect(code).toBe(0);
    expect(run.output().stdout).toMatch(/Usage: telephony-sandbox \[--port <number>\]/);
    expect(run.output().stdout).toContain('0 picks a free one');
  }, 20_000);

  it('an invalid --port is refused with exit code 2 and the help on stderr', async () => {
    const run = cli('--port', 'nope');
    const [code] = await run.exited;
    expect(code).toBe(2);
    expect(run.output().stderr).toContain('Invalid --port: nope');
    expect(run.output().stdout).toBe('');
  }, 20_000);

  it('an unknown option or a stray argument prints node’s complaint and the help, exit code 2', async () => {
    for (const args of [['--nope'], ['4010']]) {
      const run = cli(...args);
      const [code] = await run.exited;
      expect(code).toBe(2);
      const { stdout, stderr } = run.output();
      expect(stdout).toBe('');
      expect(stderr.split('\n')[0]).toMatch(
        args[0] === '--nope' ? /Unknown option '--nope'/ : /Unexpected argument '4010'/,
      );
      expect(stderr).toContain('Usage: telephony-sandbox [--port <number>]');
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  }, 20_000);

  it('a port in use: one line that says what to do, exit code 1, no stack', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const run = cli('--port', String(port));
      const [code] = await run.exited;
      expect(code).toBe(1);
      expect(run.output().stderr).toBe(
        `port ${port} is in use; pass --port 0 for a free one or another port\n`,
      );
      expect(run.output().stdout).toBe('');
    } finally {
      taken.close();
    }
  }, 20_000);

  it('simulates incoming calls from lines typed on stdin: answered, missed, voicemail, or left ringing', async () => {
    const run = cli('--port', '0');
    const banner = await run.printed('Ctrl+C to stop.');
    expect(banner).toContain('Type help for the commands that simulate an incoming call');
    const baseUrl = /baseUrl and baseUrlV1: +(\S+)/.exec(banner)?.[1] ?? '';
    const type = (line: string) => run.child.stdin?.write(`${line}\n`);

    type('incoming +15551234567 answered');
    type('incoming +15557654321 missed');
    type('incoming +15550001111 voicemail');
    type('incoming +15550002222');
    type('incoming 5550003333');
    type('incoming +15550004444 hung-up');
    type('dial +15550005555');
    type('answer call_000004');
    type('help');
    const stdout = await run.printed('shows these commands');
    expect(stdout).toContain('call_000001 from +15551234567 to +15550100000: ringing → answered\n');
    expect(stdout).toContain('call_000002 from +15557654321 to +15550100000: ringing → missed\n');
    expect(stdout).toContain('call_000003 from +15550001111 to +15550100000: ringing → voicemail\n');
    expect(stdout).toContain('call_000004 from +15550002222 to +15550100000: ringing (settle it with');
    expect(stdout).toContain('call_000004: ringing → answered\n');
    expect(stdout).toContain('incoming <number> [answered|missed|voicemail]');

    // The calls are the sandbox's own: the SDK reads them over HTTP.
    const client = new TelephonyClient({
      baseUrl,
      baseUrlV1: baseUrl,
      clientId: 'sandbox_client_id',
      clientSecret: 'sandbox_client_secret',
    });
    const calls = await client.calls.listRecent();
    expect(calls.items.map((call) => [call.id, call.direction, call.status]).sort()).toEqual([
      ['call_000001', 'inbound', 'answered'],
      ['call_000002', 'inbound', 'missed'],
      ['call_000003', 'inbound', 'voicemail'],
      ['call_000004', 'inbound', 'answered'],
    ]);

    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
    expect(run.output().stderr.trim().split('\n')).toEqual([
      'error: the number must be an E.164 number',
      'error: unknown outcome "hung-up"; use answered, missed or voicemail',
      'error: unknown command "dial"; type help for the commands',
    ]);
  }, 20_000);
});
