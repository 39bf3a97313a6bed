import { RateLimitError, TelephonyClient } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { runScript } from './child.js';

// Issue 19, item 7: `telephony-sandbox --plan … --client-id … --client-secret …`, and its rate report
// through the `rate` command and GET /_console/rate, on the real CLI process on 127.0.0.1.

const cli = (...args: string[]) => runScript('src/testing/cli.ts', args);

describe('telephony-sandbox --plan, --client-id, --client-secret and the rate report', () => {
  it('enforces the plan given for the application given; `rate` and GET /_console/rate report it', async () => {
    const run = cli(
      '--port',
      '0',
      '--plan',
      '3/min',
      '--client-id',
      'app_cli',
      '--client-secret',
      'secret_cli_7d',
    );
    const banner = await run.printed('Ctrl+C to stop.');
    const baseUrl = /baseUrl and baseUrlV1: +(\S+)/.exec(banner)?.[1] ?? '';
    expect(banner).toContain('client id:              app_cli\n');
    expect(banner).toContain('client secret:          secret_cli_7d\n');
    expect(banner).toContain('plan:                   3/min, per application and per API key\n');
    // The line to paste paces the client at the plan the sandbox enforces.
    expect(banner).toContain(
      "clientId: 'app_cli', clientSecret: 'secret_cli_7d', apiKey: 'sandbox_api_key', rateLimit: { requestsPerMinute: 3 } })",
    );
    expect(banner).toContain(`and rate for the rate report (also ${baseUrl}/_console/rate)`);

    const client = new TelephonyClient({
      baseUrl,
      clientId: 'app_cli',
      clientSecret: 'secret_cli_7d',
      maxRetries: 0,
    });
    for (let i = 0; i < 3; i++) await client.calls.listRecent();
    const refused = await client.calls.listRecent().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).status).toBe(429);
    // The default application is gone: its credentials are refused.
    const defaults = new TelephonyClient({
      baseUrl,
      clientId: 'sandbox_client_id',
      clientSecret: 'sandbox_client_secret',
      maxRetries: 0,
    });
    await expect(defaults.calls.listRecent()).rejects.toMatchObject({ status: 401 });

    run.child.stdin?.write('rate\n');
    const stdout = await run.printed('v1 apiKeys[0]:');
    expect(stdout).toContain(
      'v2 app_cli: plan 3/min, 3 counted, 1 answered 429, largest 60 s window 3 of 3, 1 token issued\n',
    );
    expect(stdout).toContain(
      'v1 apiKeys[0]: plan 3/min, 0 counted, 0 answered 429, largest 60 s window 0 of 3',
    );

    const response = await fetch(`${baseUrl}/_console/rate`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      data: [
        {
          version: 'v2',
          id: 'app_cli',
          plan: { requestsPerMinute: 3 },
          limit: 3,
          counted: 3,
          rejected: 1,
          maxInWindow: 3,
          tokensIssued: 1,
        },
        {
          version: 'v1',
          id: 'apiKeys[0]',
          plan: { requestsPerMinute: 3 },
          limit: 3,
          counted: 0,
          rejected: 0,
          maxInWindow: 0,
          tokensIssued: 0,
        },
      ],
    });
    // Never a secret: the report names the key by position.
    expect(text).not.toContain('sandbox_api_key');
    expect(text).not.toContain('secret_cli_7d');

    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
    expect(run.output().stderr).toBe('');
  }, 30_000);

  it.each([
    ['pro', 500],
    ['enterprise', 2000],
  ])(
    '--plan %s: the report gives its limit',
    async (plan, limit) => {
      const run = cli('--port', '0', '--plan', plan);
      const banner = await run.printed('Ctrl+C to stop.');
      const baseUrl = /baseUrl and baseUrlV1: +(\S+)/.exec(banner)?.[1] ?? '';
      expect(banner).toContain(
        `plan:                   ${plan} (${limit}/min), per application and per API key\n`,
      );
      expect(banner).toContain(`rateLimit: '${plan}' })`);
      const { data } = (await (await fetch(`${baseUrl}/_console/rate`)).json()) as {
        data: Array<{ id: string; plan: unknown; limit: number }>;
      };
      expect(data.map(({ id, plan, limit }) => [id, plan, limit])).toEqual([
        ['sandbox_client_id', plan, limit],
        ['apiKeys[0]', plan, limit],
      ]);
      run.child.kill('SIGTERM');
      expect(await run.exited).toEqual([0, null]);
    },
    30_000,
  );

  it('without --plan: starter, as before', async () => {
    const run = cli('--port', '0');
    const banner = await run.printed('Ctrl+C to stop.');
    expect(banner).toContain('plan:                   starter (100/min), per application and per API key\n');
    run.child.stdin?.write('rate\n');
    expect(await run.printed('v1 apiKeys[0]:')).toContain(
      'v2 sandbox_client_id: plan starter (100/min), 0 counted, 0 answered 429, largest 60 s window 0 of 100, 0 tokens issued\n',
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
  }, 30_000);

  it.each([
    [['--plan', 'gold'], 'Invalid --plan: gold'],
    [['--plan', '0/min'], 'Invalid --plan: 0/min'],
    [['--plan', '600'], 'Invalid --plan: 600'],
    [['--client-id', ''], '--client-id must not be empty'],
    [['--client-secret', ''], '--client-secret must not be empty'],
  ])(
    '%j is refused with exit code 2 and the help',
    async (args, message) => {
      const run = cli('--port', '0', ...args);
      const [code] = await run.exited;
      expect(code).toBe(2);
      const { stdout, stderr } = run.output();
      expect(stdout).toBe('');
      expect(stderr.split('\n')[0]).toBe(message);
      expect(stderr).toContain('--plan <plan>');
    },
    30_000,
  );
});
