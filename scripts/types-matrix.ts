/**
 * The TypeScript matrix: the packed package compiled by a strict consumer with the lowest supported
 * TypeScript and the current one, each under `nodenext`, `bundler` and `node10` resolution, importing
 * every entry. Each TypeScript is installed, pinned, into a temp dir of its own. Exits 1 on any error.
 *
 *   npm run test:types-matrix          (builds first)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, packTarball, projectWithTarball } from './lib/tarball.js';

/** 5.4 is the lowest that works: zod 4's types need `NoInfer` (TS 5.4); 5.0–5.3 fail inside zod. */
const VERSIONS = ['5.4.5', '5.9.3'];

const RESOLUTIONS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  // `esModuleInterop` as `tsc --init` writes it: without it zod's own CommonJS declarations fail.
  node10: { module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true },
} as const;

/** What a user writes: every entry, and the result types as SPEC.md documents them. */
const CONSUMER = `import { TelephonyClient, type Call, type EndedCall } from 'telephony-sdk';
import { WebhookReceiver, verifyWebhook } from 'telephony-sdk/webhooks';
import { createSandbox } from 'telephony-sdk/testing';
import { redisState } from 'telephony-sdk/redis';

export async function use(client: TelephonyClient, call: Call, ended: EndedCall) {
  const d: string = call.direction;
  const e: string = ended.ended_at;
  const detail = await client.calls.get(call.id);
  const seconds: number = detail.duration;
  const receiver = new WebhookReceiver({ secret: 'whsec_x' });
  receiver.on('call.status_changed', (event) => event.data.call.status);
  const event = await verifyWebhook('{}', 't=1,v1=00', 'whsec_x');
  return [d, e, seconds, receiver, event, createSandbox, redisState] as const;
}
`;

function compile(tsDir: string, project: string, resolution: keyof typeof RESOLUTIONS): string {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...RESOLUTIONS[resolution],
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        noEmit: true,
      },
      files: ['consumer.ts'],
    }),
  );
  try {
    execFileSync(process.execPath, [join(tsDir, 'node_modules/typescript/bin/tsc'), '-p', project], {
      encoding: 'utf8',
    });
    return '';
  } catch (error) {
    // The first lines say what broke; zod's locales can add hundreds more of the same.
    return String((error as { stdout?: string }).stdout ?? error)
      .split('\n')
      .slice(0, 20)
      .join('\n');
  }
}

ensureBuilt();
const project = projectWithTarball(packTarball());
writeFileSync(join(project, 'consumer.ts'), CONSUMER);
let failed = 0;
for (const version of VERSIONS) {
  const tsDir = mkdtempSync(join(tmpdir(), `typescript-${version}-`));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', tsDir, `typescript@${version}`], {
    stdio: 'ignore',
  });
  for (const resolution of Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[]) {
    const errors = compile(tsDir, project, resolution);
    if (errors) failed++;
    console.log(`TypeScript ${version}, ${resolution}: ${errors ? `FAIL\n${errors}` : 'ok'}`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
