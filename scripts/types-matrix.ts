/**
 * The TypeScript matrix: the packed package compiled by a strict consumer with the lowest supported
 * TypeScript, the current 5.x and the newest of each major since, each under `nodenext`, `bundler` and
 * (where that TypeScript still has it) `node10` resolution, importing every entry. Each TypeScript is
 * installed, pinned, into a temp dir of its own. Exits 1 on any error.
 *
 *   npm run test:types-matrix          (builds first)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, packTarball, projectWithTarball } from './lib/tarball.js';

/**
 * README says "5.4 and later": its lowest, the last 5.x, and the newest 6 and 7. 5.4 is also what
 * zod 4's types need (`NoInfer`), should a public type name one again (test/contract/editor-types
 * holds that the declarations import none).
 */
const VERSIONS = ['5.4.5', '5.9.3', '6.0.3', '7.0.2'];

const RESOLUTIONS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  // `esModuleInterop` as `tsc --init` writes it.
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

type Resolution = keyof typeof RESOLUTIONS;

/**
 * The resolution's options under TypeScript `version`, or `undefined` where it has no such resolution:
 * 6.0 deprecates `node10` (a project keeps it with `ignoreDeprecations`, as a user would), 7.0 removed it.
 */
function resolutionOptions(resolution: Resolution, version: string): object | undefined {
  const major = Number(version.split('.')[0]);
  if (resolution !== 'node10' || major < 6) return RESOLUTIONS[resolution];
  return major === 6 ? { ...RESOLUTIONS.node10, ignoreDeprecations: '6.0' } : undefined;
}

function compile(tsDir: string, project: string, resolution: object): string {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...resolution,
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
  for (const resolution of Object.keys(RESOLUTIONS) as Resolution[]) {
    const options = resolutionOptions(resolution, version);
    if (!options) {
      console.log(`TypeScript ${version}, ${resolution}: not run (this TypeScript has no such resolution)`);
      continue;
    }
    const errors = compile(tsDir, project, options);
    if (errors) failed++;
    console.log(`TypeScript ${version}, ${resolution}: ${errors ? `FAIL\n${errors}` : 'ok'}`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
