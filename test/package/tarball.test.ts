/**
 * The packed tarball, installed into temporary projects, as users get it: each entry through
 * ESM `import`, CJS `require`, and the TypeScript compiler (nodenext and bundler resolution);
 * `telephony-sdk/webhooks` also without ky and zod installed; and the `telephony-sandbox` bin.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, packTarball, projectWithTarball, repoRoot } from '../../scripts/lib/tarball.js';
import { cjsProbe, consumerTsconfig, esmProbe, type ProbeResult, typescriptConsumer } from './probes.js';

const ENTRIES = ['telephony-sdk', 'telephony-sdk/webhooks', 'telephony-sdk/testing'];

let project = '';
let webhooksOnly = '';
const made: string[] = [];

function run(cwd: string, file: string, contents: string): ProbeResult {
  writeFileSync(join(cwd, file), contents);
  const out = execFileSync(process.execPath, [file], { cwd, encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ProbeResult;
}

/** tsc's diagnostics ('' when the project typechecks). */
function compilerErrors(tsc: string, config: string): string {
  try {
    execFileSync(process.execPath, [tsc, '-p', config], { cwd: project, encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout || error);
  }
}

beforeAll(() => {
  ensureBuilt();
  const tarball = packTarball();
  made.push(join(tarball, '..'));
  project = projectWithTarball(tarball);
  made.push(project);
  // The edge-receiver case: the same install, minus the HTTP client's dependencies.
  webhooksOnly = mkdtempSync(join(tmpdir(), 'telephony-sdk-webhooks-only-'));
  made.push(webhooksOnly);
  cpSync(project, webhooksOnly, { recursive: true });
  rmSync(join(webhooksOnly, 'node_modules/ky'), { recursive: true, force: true });
  rmSync(join(webhooksOnly, 'node_modules/zod'), { recursive: true, force: true });
}, 120_000);

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['ESM import', 'probe.mjs', esmProbe],
  ['CJS require', 'probe.cjs', cjsProbe],
])('packed tarball, %s', (_format, file, probe) => {
  let result: ProbeResult;
  beforeAll(() => {
    result = run(project, file, probe(ENTRIES));
  });

  it('loads every entry', () => {
    for (const entry of ENTRIES) expect(result.exports[entry], entry).toBeInstanceOf(Array);
    expect(result.exports['telephony-sdk']).toEqual(
      expect.arrayContaining(['TelephonyError', 'APIError', 'ValidationError', 'APIConnectionError']),
    );
  });

  it('exports the client and pagination of API.md', () => {
    expect(result.exports['telephony-sdk']).toEqual(expect.arrayContaining(['TelephonyClient']));
  });

  it('exports the webhook API from both entries', () => {
    const names = ['verifyWebhook', 'signWebhook', 'WebhookReceiver', 'WebhookVerificationError'];
    expect(result.exports['telephony-sdk/webhooks']).toEqual(expect.arrayContaining(names));
    expect(result.exports['telephony-sdk']).toEqual(expect.arrayContaining(names));
  });

  it('an error from telephony-sdk/webhooks is a TelephonyError of telephony-sdk', () => {
    expect(result.webhookError).toEqual({
      name: 'WebhookVerificationError',
      instanceOfMainTelephonyError: true,
      reason: 'missing_header',
    });
  });

  it('shares one TelephonyError class between the entries', () => {
    expect(result.sameTelephonyError).not.toBe(false);
  });

  it('loads telephony-sdk/webhooks without ky or zod installed', () => {
    const alone = run(webhooksOnly, file, probe(['telephony-sdk/webhooks']));
    expect(alone.exports['telephony-sdk/webhooks']).toBeInstanceOf(Array);
    expect(alone.webhookError).toMatchObject({
      name: 'WebhookVerificationError',
      reason: 'missing_header',
    });
  });
});

describe('packed tarball, TypeScript', () => {
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  const typeRoots = join(repoRoot, 'node_modules/@types');

  it.each([
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ] as const)('typechecks every entry with module %s, moduleResolution %s', (module, resolution) => {
    writeFileSync(join(project, 'consumer.ts'), typescriptConsumer);
    writeFileSync(join(project, 'consumer.cts'), typescriptConsumer);
    const config = `tsconfig.${resolution}.json`;
    writeFileSync(join(project, config), consumerTsconfig(module, resolution, typeRoots));
    expect(compilerErrors(tsc, config)).toBe('');
  });
});

describe('packed tarball, the telephony-sandbox bin', () => {
  it('is installed as an executable that runs on its own shebang', () => {
    // Run directly, not through `node`: a missing shebang or exec bit fails here as it would for users.
    const help = execFileSync(join(project, 'node_modules/.bin/telephony-sandbox'), ['--help'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(help).toContain('Usage: telephony-sandbox [--port <number>]');
  });
});
