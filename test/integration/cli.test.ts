import { TelephonyClient } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { runScript } from './child.js';

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
});
