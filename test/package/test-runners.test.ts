/**
 * Test runners over the packed package, each project as its users set one up, the runner started
 * in it as `npx jest` or `npx vitest run` would: Jest 30 in a CommonJS project with its defaults
 * (`require('telephony-sdk')`), in an ES module project (`"type": "module"`, run with
 * `NODE_OPTIONS=--experimental-vm-modules`, as Jest's docs say) and in its jsdom environment (a
 * component test, which docs/sandbox.md covers); Vitest in its node and jsdom environments. Each
 * test file creates a sandbox from `telephony-sdk/testing`, lists its calls with the client and
 * verifies a signed webhook. Plain JavaScript test files: no transform is needed. The runners and
 * jsdom are this repository's pinned devDependencies, linked into the project's node_modules.
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
const vitest = join(repoRoot, 'node_modules/vitest/vitest.mjs');
let project = '';

beforeAll(async () => {
  project = await packedProject('telephony-sdk-test-runners-');
  // Where a user's install has them, beside the package.
  for (const name of ['jest-environment-jsdom', 'vitest', 'jsdom']) {
    symlinkSync(join(repoRoot, 'node_modules', name), join(project, 'node_modules', name));
  }
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

/**
 * Writes a consumer project (its own folder in the packed install) and runs the test runner in it
 * (`args` after node); resolves with all it printed, whether it passed or not.
 */
async function runIn(
  dir: string,
  manifest: object,
  source: string,
  args: string[],
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
  const done = await run(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 120_000,
  }).catch((error: { stderr?: string; stdout?: string }) => error);
  return `${done.stdout ?? ''}${done.stderr ?? ''}`;
}

const JEST_PASSED = /Tests: +2 passed, 2 total/;

describe('packed tarball, Jest 30', () => {
  it('CommonJS, default Jest: a test of the client against the sandbox, and of a signed webhook, passes', async () => {
    expect(await runIn('jest-cjs', {}, CJS + tests(false), [jest, '--ci'])).toMatch(JEST_PASSED);
  }, 180_000);

  it('ES modules (--experimental-vm-modules): the same tests pass', async () => {
    const output = await runIn('jest-esm', { type: 'module' }, ESM + tests(false), [jest, '--ci'], {
      NODE_OPTIONS: '--experimental-vm-modules',
    });
    expect(output).toMatch(JEST_PASSED);
  }, 180_000);

  it("jsdom, with docs/runtimes.md's environment (Node's TextEncoder and fetch classes added): the tests pass", async () => {
    expect(readFileSync(join(repoRoot, 'docs/runtimes.md'), 'utf8')).toContain(jsdomEnvironment);
    const manifest = { jest: { testEnvironment: './jsdom-environment.cjs' } };
    expect(await runIn('jest-jsdom', manifest, CJS + tests(true), [jest, '--ci'])).toMatch(JEST_PASSED);
  }, 180_000);

  it("jsdom, Jest's own environment: loading the SDK fails on TextEncoder, as docs/runtimes.md says", async () => {
    expect(readFileSync(join(repoRoot, 'docs/runtimes.md'), 'utf8')).toContain(
      '`TextEncoder is not defined`',
    );
    const manifest = { jest: { testEnvironment: 'jsdom' } };
    const output = await runIn('jest-jsdom-plain', manifest, CJS + tests(true), [jest, '--ci']);
    expect(output).toContain('ReferenceError: TextEncoder is not defined');
  }, 180_000);
});

describe('packed tarball, Vitest 4', () => {
  it.each([
    ['node', false],
    ['jsdom', true],
  ] as const)(
    'the %s environment: the same tests pass',
    async (environment, browser) => {
      const source = `import { expect, test } from 'vitest';\n${ESM}${tests(browser)}`;
      const args = [vitest, 'run', '--environment', environment];
      const output = await runIn(`vitest-${environment}`, { type: 'module' }, source, args);
      expect(output).toMatch(/Tests +2 passed \(2\)/);
    },
    180_000,
  );
});
