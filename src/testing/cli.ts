#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { logLine } from './activity-log.js';
import { COMMANDS_HELP, readCommands } from './cli-commands.js';
import { DEFAULT_API_KEY, DEFAULT_CALLBACK_SECRET, DEFAULT_CLIENT } from './credentials.js';
import type { SandboxPlan } from './plans.js';
import { planLabel } from './rate-report.js';
import { consoleWorldOf, createSandbox } from './sandbox.js';

const HELP = `telephony-sandbox — a local, stateful telephony service for building and testing apps

Usage: telephony-sandbox [--port <number>] [--plan <plan>] [--client-id <id>] [--client-secret <secret>] [--cors]

Options:
  -p, --port <number>         port on 127.0.0.1 (default 4010; 0 picks a free one)
  --plan <plan>               the rate limit enforced, per application and per API key: starter
                              (100 requests per minute, the default), pro (500), enterprise (2000),
                              or <n>/min (e.g. 600/min, to keep a long test short)
  --client-id <id>            the OAuth application's client id (default sandbox_client_id)
  --client-secret <secret>    its client secret (default sandbox_client_secret)
  --cors                      let pages served from localhost, 127.0.0.1 or [::1] (any port) call
                              the API from a browser (CORS); pages of other origins are refused
  -h, --help                  show this help

${COMMANDS_HELP}

The sandbox runs on the wall clock: calls ring after 1 s, are answered after 5 s and
complete after 35 s. Webhooks may only point at 127.0.0.1 or localhost. It logs a line per
request and webhook delivery, and serves a console page (/_console/) to watch and drive it.`;

async function main(): Promise<void> {
  const values = optionsOrUsage();
  if (!values) return;
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid --port: ${values.port}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const plan = planOf(values.plan);
  const clientId = values['client-id'] ?? DEFAULT_CLIENT.clientId;
  const clientSecret = values['client-secret'] ?? DEFAULT_CLIENT.clientSecret;
  const empty = (['client-id', 'client-secret'] as const).find((name) => values[name] === '');
  if (plan === undefined || empty) {
    console.error(`${empty ? `--${empty} must not be empty` : `Invalid --plan: ${values.plan}`}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const sandbox = createSandbox({
    clock: { mode: 'realtime' },
    clients: [{ clientId, clientSecret, plan }],
    apiKeys: [{ key: DEFAULT_API_KEY.key, plan }],
  });
  const server = await sandbox.listen({ port, console: true, cors: values.cors === true });
  const { apiKey } = sandbox.credentials;
  const [usage] = sandbox.rateReport();
  // The same value as the client's rateLimit option, so the line below can be pasted as it is.
  const rateLimit =
    typeof plan === 'string' ? `'${plan}'` : `{ requestsPerMinute: ${plan.requestsPerMinute} }`;
  // The SDK appends /v2/… and /v1/… itself: the base URL printed is the bare origin.
  console.log(`telephony sandbox listening on ${server.url} (v2 under /v2, v1 under /v1)

  baseUrl and baseUrlV1:  ${server.url}
  console (open it):      ${server.consoleUrl}
  client id:              ${clientId}
  client secret:          ${clientSecret}
  API key:                ${apiKey}
  callback secret:        ${DEFAULT_CALLBACK_SECRET} (signs callback_url notifications; a webhook has its own)
  plan:                   ${usage ? planLabel(usage) : ''}, per application and per API key

  new TelephonyClient({ baseUrl: '${server.url}', baseUrlV1: '${server.url}',
    clientId: '${clientId}', clientSecret: '${clientSecret}', apiKey: '${apiKey}', rateLimit: ${rateLimit} })

  In a clone of the SDK's repository (examples/ is not in the npm package), this points
  its examples at the sandbox; then run one, e.g. npx tsx examples/calls-list.ts:
  export TELEPHONY_BASE_URL=${server.url} TELEPHONY_CLIENT_ID=${clientId} TELEPHONY_CLIENT_SECRET=${clientSecret} TELEPHONY_API_KEY=${apiKey}

Type help for the commands that simulate an incoming call, e.g. incoming +15551234567 answered,
and rate for the rate report (also ${server.url}/_console/rate).
Type fault to make requests fail, e.g. fault POST /v2/calls drop_after 1 (faults lists them).
Ctrl+C to stop.`);
  void readCommands(sandbox, process.stdin);
  consoleWorldOf(sandbox).activity.subscribe((record) => {
    const line = logLine(record);
    if (line !== undefined) console.log(line);
  });
  const stop = () => {
    sandbox.close();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The options, or undefined after printing the parser's complaint and the help (exit code 2). */
function optionsOrUsage() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', short: 'p', default: '4010' },
        plan: { type: 'string', default: 'starter' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        cors: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    // Unknown options and stray arguments: node:util's message, then how to call the CLI.
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    process.exitCode = 2;
    return undefined;
  }
}

/** `--plan`: a plan name or `<n>/min`; undefined when it is neither (a rate of 0 included). */
function planOf(value: string): SandboxPlan | undefined {
  if (value === 'starter' || value === 'pro' || value === 'enterprise') return value;
  const rate = /^([1-9]\d{0,8})\/min$/.exec(value)?.[1];
  return rate === undefined ? undefined : { requestsPerMinute: Number(rate) };
}

/** The line printed when the sandbox cannot start, never a stack: a port in use says the way out. */
function startFailure(error: unknown): string {
  const { code, port } = (error ?? {}) as { code?: unknown; port?: unknown };
  if (code === 'EADDRINUSE') return `port ${port} is in use; pass --port 0 for a free one or another port`;
  return error instanceof Error ? error.message : String(error);
}

main().catch((error: unknown) => {
  console.error(startFailure(error));
  process.exit(1);
});
