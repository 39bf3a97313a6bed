/**
 * Jest 30 over the packed package, each project as its users set one up: CommonJS with Jest's
 * defaults (`require('telephony-sdk')`); an ES module project (`"type": "module"`, Jest run with
 * `NODE_OPTIONS=--experimental-vm-modules`, as Jest's docs say); and a component test in Jest's jsdom
 * environment (jest-environment-jsdom), which docs/sandbox.md covers. Each test file creates a
 * sandbox from `telephony-sdk/testing`, lists its calls with the client and verifies a signed
 * webhook. Plain JavaScript test files: no transform is needed.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/tarball.js';
import { packedProject } from './packed-project.js';

const run = promisify(execFile);
const jest = join(repoRoot, 'node_modules/jest/bin/jest.js');
let project = '';

beforeAll(async () => {
  project = await packedProject('telephony-sdk-jest-');
}, 300_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

const CJS = `const { TelephonyClient } = require('telephony-sdk');
const { createSandbox } = require('telephony-sdk/testing');
const { signWebhook, verifyWebhook } = require('telephony-sdk/webhooks');
`;
const ESM = `import { TelephonyClient } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';
import { signWebhook, verifyWebhook } from 'telephony-sdk/webhooks';
`;

/** The tests, after the imports; `browser` adds what a component test under jsdom needs and does. */
const tests = (browser: boolean) => `
test('the client lists the calls of a sandbox', async () => {
  const sandbox = createSandbox();
  const incoming = sandbox.simulateIncomingCall({ from: '+15550001111' });
  const client = new TelephonyClient({
    baseUrl: 'http://sandbox.test',
    baseUrlV1: 'http://sandbox.test',
    ...sandbox.credentials,
    fetch: sandbox.fetch,
    clock: sandbox.clientClock,${browser ? '\n    dangerouslyAllowBrowser: true,' : ''}
  });
  const page = await client.calls.listRecent({ limit: 10 });
  const ids = page.items.map((call) => call.id);
  expect(ids).toContain(incoming.id);${
    browser
      ? `
  const list = document.createElement('ul');
  for (const id of ids) list.append(Object.assign(document.createElement('li'), { textContent: id }));
  document.body.append(list);
  expect(document.querySelectorAll('li').length).toBe(ids.length);`
      : ''
  }
});

test('a signed webhook verifies', async () => {
  const body = JSON.stringify({
    id: 'evt_jest',
    type: 'call.incoming',
    created_at: new Date().toISOString(),
    data: { call: { id: 'call_1' } },
  });
  const event = await verifyWebhook(body, await signWebhook(body, 'whsec_jest'), 'whsec_jest');
  expect(event.id).toBe('evt_jest');
});
`;

const jsdomEnvironment = readFileSync(join(repoRoot, 'test/fixtures/jest/jsdom-environment.cjs'), 'utf8');

/** Writes a consumer project (its own folder in the packed install), runs Jest in it; Jest's summary. */
async function jestIn(
  dir: string,
  manifest: object,
  source: string,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  const root = join(project, dir);
  mkdirSync(root);
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: `consumer-${dir}`, private: true, ...manifest }),
  );
  writeFileSync(join(root, 'calls.test.js'), source);
  writeFileSync(join(root, 'jsdom-environment.cjs'), jsdomEnvironment);
  const done = await run(process.execPath, [jest, '--ci'], {
    cwd: root,
    env: { ...process.env, ...env },
    timeout: 120_000,
  }).catch((error: { stderr?: string; stdout?: string }) => ({ stderr: `${error.stderr}${error.stdout}` }));
  return done.stderr;
}

describe('packed tarball, Jest 30', () => {
  it('CommonJS, default Jest: a test of the client against the sandbox, and of a signed webhook, passes', async () => {
    expect(await jestIn('cjs', {}, CJS + tests(false))).toMatch(/Tests: +2 passed, 2 total/);
  }, 180_000);

  it('ES modules (--experimental-vm-modules): the same tests pass', async () => {
    const summary = await jestIn('esm', { type: 'module' }, ESM + tests(false), {
      NODE_OPTIONS: '--experimental-vm-modules',
    });
    expect(summary).toMatch(/Tests: +2 passed, 2 total/);
  }, 180_000);

  describe('jsdom environment (a component test)', () => {
    beforeAll(() => {
      // Where a user's install has it, beside the package.
      symlinkSync(
        join(repoRoot, 'node_modules/jest-environment-jsdom'),
        join(project, 'node_modules/jest-environment-jsdom'),
      );
    });

    it("with docs/runtimes.md's environment (Node's TextEncoder and fetch classes added), the tests pass", async () => {
      expect(readFileSync(join(repoRoot, 'docs/runtimes.md'), 'utf8')).toContain(jsdomEnvironment);
      const summary = await jestIn(
        'jsdom',
        { jest: { testEnvironment: './jsdom-environment.cjs' } },
        CJS + tests(true),
      );
      expect(summary).toMatch(/Tests: +2 passed, 2 total/);
    }, 180_000);

    it("with Jest's own jsdom environment, loading the SDK fails on TextEncoder, as docs/runtimes.md says", async () => {
      expect(readFileSync(join(repoRoot, 'docs/runtimes.md'), 'utf8')).toContain(
        '`TextEncoder is not defined`',
      );
      const summary = await jestIn('jsdom-plain', { jest: { testEnvironment: 'jsdom' } }, CJS + tests(true));
      expect(summary).toContain('ReferenceError: TextEncoder is not defined');
    }, 180_000);
  });
});
