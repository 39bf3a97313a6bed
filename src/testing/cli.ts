import { parseArgs } from 'node:util';
import { createSandbox } from './sandbox.js';

const HELP = `telephony-sandbox — a local, stateful telephony service for building and testing apps

Usage: telephony-sandbox [--port <number>]

Options:
  -p, --port <number>  port on 127.0.0.1 (default 4010; 0 picks a free one)
  -h, --help           show this help

The sandbox runs on the wall clock: calls ring after 1 s, are answered after 5 s and
complete after 35 s. Webhooks may only point at 127.0.0.1 or localhost.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string', short: 'p', default: '4010' }, help: { type: 'boolean', short: 'h' } },
  });
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
  const sandbox = createSandbox({ clock: { mode: 'realtime' } });
  const server = await sandbox.listen({ port });
  const { clientId, clientSecret, apiKey } = sandbox.credentials;
  // The SDK appends /v2/… and /v1/… itself: the base URL printed is the bare origin.
  console.log(`telephony sandbox listening on ${server.url} (v2 under /v2, v1 under /v1)

  baseUrl and baseUrlV1:  ${server.url}
  client id:              ${clientId}
  client secret:          ${clientSecret}
  API key:                ${apiKey}

  new TelephonyClient({ baseUrl: '${server.url}', baseUrlV1: '${server.url}',
    clientId: '${clientId}', clientSecret: '${clientSecret}', apiKey: '${apiKey}' })

  In a clone of the SDK's repository (examples/ is not in the npm package), this points
  its examples at the sandbox; then run one, e.g. npx tsx examples/calls-list.ts:
  export TELEPHONY_BASE_URL=${server.url} TELEPHONY_CLIENT_ID=${clientId} TELEPHONY_CLIENT_SECRET=${clientSecret} TELEPHONY_API_KEY=${apiKey}

Ctrl+C to stop.`);
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
