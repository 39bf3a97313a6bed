/**
 * The packed tarball in more places users put it: Vite's and Rollup's production builds of a
 * browser app (each bundle then run: its client lists calls, its receiver verifies a signed
 * delivery), again with the sandbox of `telephony-sdk/testing` in the page (each takes dist/, the
 * build of the `module` condition, and warns of nothing in the package), and a test file run by
 * node:test, the sandbox beside the client, as docs/sandbox.md shows.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import commonjsModule from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/tarball.js';
import { packedProject } from './packed-project.js';

// The plugin's types are CommonJS under NodeNext (the function is their `default`); at run time the
// import resolves its ESM build, whose default export is the function itself.
const commonjs = commonjsModule as unknown as typeof commonjsModule.default;

const fixtures = join(import.meta.dirname, '../fixtures/consumers');
let project = '';

beforeAll(async () => {
  project = await packedProject();
}, 300_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

/** An app that lists calls through a given fetch and verifies a delivery it signs itself. */
const APP = `
import { TelephonyClient } from 'telephony-sdk';
import { signWebhook, WebhookReceiver } from 'telephony-sdk/webhooks';

export async function run(fetch) {
  const client = new TelephonyClient({ baseUrl: 'http://sandbox.test', accessToken: 'tok', fetch });
  const page = await client.calls.listRecent({ limit: 5 });
  const receiver = new WebhookReceiver({ secret: 'whsec_app' });
  const seen = [];
  receiver.on('call.incoming', (event) => void seen.push(event.id));
  const body = JSON.stringify({ id: 'evt_app', type: 'call.incoming', created_at: new Date().toISOString(), data: { call: { id: 'call_1' } } });
  const headers = { 'service-signature': await signWebhook(body, 'whsec_app') };
  const { status } = await receiver.handle({ body, headers });
  return { listed: page.items.length, status, seen };
}
`;

/** A fetch answering one page of calls, as the service would. */
const fetchStub = async () =>
  Response.json({
    status: 200,
    data: { calls: [], pagination: { total: 0, limit: 5, offset: 0, has_more: false } },
  });

/** What a bundler made of an app: the bundle's file, the warnings about the package, the package's files it took. */
interface Bundled {
  file: string;
  warnings: string[];
  inputs: string[];
}

/**
 * Adds to `warnings` a warning about the package's own files (zod's comments and cycles, which
 * Rollup reports, are not the package's to fix).
 */
function ownWarning(warning: { id?: string | undefined; message: string }, warnings: string[]): void {
  if (`${warning.id} ${warning.message}`.includes('node_modules/telephony-sdk/'))
    warnings.push(warning.message);
}

/** A plugin (Vite's and Rollup's alike) that records the files of the installed package loaded. */
function packageInputs() {
  const inputs: string[] = [];
  const root = join(project, 'node_modules/telephony-sdk/');
  const plugin = {
    name: 'package-inputs',
    load(id: string) {
      if (id.startsWith(root)) inputs.push(id.slice(root.length));
      return null;
    },
  };
  return { inputs, plugin };
}

/** A Vite production build of `entry` (a library build: the test imports what it exports). */
async function viteBuild(entry: string): Promise<Bundled> {
  const warnings: string[] = [];
  const { inputs, plugin } = packageInputs();
  const outDir = join(project, `vite-${entry}`);
  await build({
    root: project,
    logLevel: 'silent',
    configFile: false,
    plugins: [plugin],
    build: {
      outDir,
      minify: true,
      lib: { entry: join(project, entry), formats: ['es'], fileName: 'app' },
      rolldownOptions: { onwarn: (warning) => ownWarning(warning, warnings) },
    },
  });
  return { file: join(outDir, 'app.js'), warnings, inputs };
}

/** A Rollup build of `entry` with README's plugins. */
async function rollupBuild(entry: string): Promise<Bundled> {
  const warnings: string[] = [];
  const { inputs, plugin } = packageInputs();
  const bundle = await rollup({
    input: join(project, entry),
    plugins: [plugin, nodeResolve({ browser: true }), commonjs()],
    onwarn: (warning) => ownWarning(warning, warnings),
  });
  const dir = join(project, `rollup-${entry}`);
  await bundle.write({ dir, entryFileNames: 'app.mjs', format: 'es' });
  return { file: join(dir, 'app.mjs'), warnings, inputs };
}

describe('packed tarball, more consumers', () => {
  it('a Vite production build of a browser app bundles it with no setting, and the bundle runs', async () => {
    writeFileSync(join(project, 'app.js'), APP);
    await build({
      root: project,
      logLevel: 'silent',
      configFile: false,
      build: {
        outDir: 'vite-dist',
        minify: true,
        lib: { entry: join(project, 'app.js'), formats: ['es'], fileName: 'app' },
      },
    });
    const [bundle = ''] = readdirSync(join(project, 'vite-dist'));
    const app = (await import(pathToFileURL(join(project, 'vite-dist', bundle)).href)) as {
      run(fetch: typeof fetchStub): Promise<unknown>;
    };
    expect(await app.run(fetchStub)).toEqual({ listed: 0, status: 200, seen: ['evt_app'] });
  }, 120_000);

  it('Rollup bundles it with the one line README names (eventemitter3 is CommonJS), and the bundle runs', async () => {
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8')).toContain(
      'plugins: [nodeResolve({ browser: true }), commonjs()]',
    );
    writeFileSync(join(project, 'app.js'), APP);
    const bundle = await rollup({
      input: join(project, 'app.js'),
      plugins: [nodeResolve({ browser: true }), commonjs()],
      onwarn: () => {},
    });
    await bundle.write({ dir: join(project, 'rollup-dist'), entryFileNames: 'app.mjs', format: 'es' });
    const app = (await import(pathToFileURL(join(project, 'rollup-dist/app.mjs')).href)) as {
      run(fetch: typeof fetchStub): Promise<unknown>;
    };
    expect(await app.run(fetchStub)).toEqual({ listed: 0, status: 200, seen: ['evt_app'] });
  }, 120_000);

  // The app of webpack.test.ts: the sandbox of telephony-sdk/testing bundled into the page too.
  it.each(['vite', 'rollup'] as const)(
    '%s bundles a browser app with the sandbox from dist/, no warning about the package, and the bundle runs',
    async (bundler) => {
      copyFileSync(join(fixtures, 'browser-app.js'), join(project, `sandbox-app-${bundler}.js`));
      const { file, warnings, inputs } = await (bundler === 'vite' ? viteBuild : rollupBuild)(
        `sandbox-app-${bundler}.js`,
      );
      expect(warnings).toEqual([]);
      expect(inputs).toEqual(
        expect.arrayContaining(['dist/index.js', 'dist/testing.cjs', 'dist/webhooks.js']),
      );
      expect(inputs.filter((input) => !input.startsWith('dist/') || input.startsWith('dist/node/'))).toEqual(
        [],
      );
      const app = (await import(pathToFileURL(file).href)) as {
        run(): Promise<{ listed: string[]; incoming: string; status: number; seen: string[] }>;
      };
      const result = await app.run();
      expect(result.listed).toContain(result.incoming);
      expect(result).toMatchObject({ status: 200, seen: ['evt_app'] });
    },
    120_000,
  );

  it('node:test runs a test of the client against the sandbox', () => {
    writeFileSync(
      join(project, 'calls.test.mjs'),
      `
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TelephonyClient } from 'telephony-sdk';
import { createSandbox } from 'telephony-sdk/testing';

test('a placed call is answered', async () => {
  const sandbox = createSandbox();
  const client = new TelephonyClient({
    baseUrl: 'http://sandbox.test', baseUrlV1: 'http://sandbox.test',
    ...sandbox.credentials, fetch: sandbox.fetch, clock: sandbox.clientClock,
  });
  const call = await client.calls.create({ to: '+15551234567' });
  await sandbox.advance(5_000);
  assert.equal((await client.calls.get(call.id)).status, 'answered');
});
`,
    );
    const out = execFileSync(process.execPath, ['--test', 'calls.test.mjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out).toMatch(/# pass 1\n# fail 0/);
  });
});
