/**
 * webpack 5 (its Node API, as webpack-cli calls it) over the packed package, production mode and no
 * resolve setting (no `resolve.fallback` for Node's modules): a browser app (`target: 'web'`) with
 * the client, the sandbox of `telephony-sdk/testing` and the receiver, which docs/sandbox.md says
 * bundles for the browser with no setting; and a Node server's receiver (`target: 'node'`). Each
 * bundle then runs: the client lists the sandbox's calls, the receiver answers a signed delivery.
 * Both take dist/ (the `module` condition, listed before `node`), not the Node build.
 */

import { once } from 'node:events';
import { copyFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signWebhook } from 'telephony-sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpack, { type Configuration } from 'webpack';
import { packedProject } from './packed-project.js';

const fixtures = join(import.meta.dirname, '../fixtures/consumers');
let project = '';

beforeAll(async () => {
  project = await packedProject('telephony-sdk-webpack-');
  for (const file of ['browser-app.js', 'node-receiver.js'])
    copyFileSync(join(fixtures, file), join(project, file));
}, 300_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

/**
 * Bundles `entry` of the project into `<outDir>/app.mjs`, an ES module (so the test can import
 * what the app exports); rejects with webpack's errors. Resolves with the bundle's URL, the
 * warnings webpack printed ("<module>: <message>") and the files of the package it read.
 */
async function bundle(
  entry: string,
  outDir: string,
  target: 'web' | 'node',
): Promise<{ url: string; warnings: string[]; packageFiles: string[] }> {
  const config: Configuration = {
    mode: 'production',
    target,
    context: project,
    entry: `./${entry}`,
    output: { path: join(project, outDir), filename: 'app.mjs', module: true, library: { type: 'module' } },
    experiments: { outputModule: true },
  };
  const stats = await new Promise<webpack.Stats>((resolve, reject) => {
    webpack(config, (error, result) => (error || !result ? reject(error) : resolve(result)));
  });
  const { errors = [], warnings = [] } = stats.toJson({ all: false, errors: true, warnings: true });
  if (errors.length > 0) throw new Error(errors.map((problem) => problem.message).join('\n'));
  return {
    url: pathToFileURL(join(project, outDir, 'app.mjs')).href,
    packageFiles: packageFilesOf(stats.compilation.fileDependencies),
    warnings: warnings.map(
      (problem) => `${problem.moduleName?.replace(/chunk-\w+/, 'chunk-*')}: ${problem.message}`,
    ),
  };
}

/** The files of the installed package among `files` (files and folders webpack read), relative to it and sorted. */
function packageFilesOf(files: Iterable<string>): string[] {
  const root = join(project, 'node_modules/telephony-sdk/');
  return [...files]
    .filter((file) => file.startsWith(root) && statSync(file).isFile() && !file.endsWith('package.json'))
    .map((file) => file.slice(root.length))
    .sort();
}

/** The build webpack takes whatever the target, through `import`: dist/, not the Node build. */
const expectDist = (files: string[], entries: string[]) => {
  expect(files).toEqual(expect.arrayContaining(entries));
  expect(files.filter((file) => !file.startsWith('dist/') || file.startsWith('dist/node/'))).toEqual([]);
};

/**
 * The one warning webpack prints for the browser app: the CommonJS build of the sandbox's lazy
 * `import('node:http')` is `require(specifier)`, whose webpackIgnore comment webpack reads only
 * with `module.parser.javascript.commonjsMagicComments` set. The bundle works (listen() is never
 * called in a browser); the day the build stops making that `require`, this list is empty.
 */
const KNOWN_WEB_WARNINGS = [
  './node_modules/telephony-sdk/dist/chunk-*.cjs: Critical dependency: the request of a dependency is an expression',
];

describe('packed tarball, webpack 5', () => {
  it("a browser app (target 'web') bundles the client, the sandbox and the receiver with no setting, and runs", async () => {
    const { url, warnings, packageFiles } = await bundle('browser-app.js', 'web-dist', 'web');
    expect(warnings).toEqual(KNOWN_WEB_WARNINGS);
    expectDist(packageFiles, ['dist/index.js', 'dist/testing.cjs', 'dist/webhooks.js']);
    const app = (await import(url)) as {
      run(): Promise<{ listed: string[]; incoming: string; status: number; seen: string[] }>;
    };
    const result = await app.run();
    expect(result.listed).toContain(result.incoming);
    expect(result).toMatchObject({ status: 200, seen: ['evt_app'] });
  }, 120_000);

  it("a Node server's receiver (target 'node') answers a signed delivery 200 and a bad signature 401", async () => {
    const { url, warnings, packageFiles } = await bundle('node-receiver.js', 'node-dist', 'node');
    expect(warnings).toEqual([]);
    expectDist(packageFiles, ['dist/webhooks.js']);
    const app = (await import(url)) as {
      createApp(secret: string): { server: import('node:http').Server; ran: string[] };
    };
    const { server, ran } = app.createApp('whsec_webpack');
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      const body = JSON.stringify({
        id: 'evt_webpack',
        type: 'call.incoming',
        created_at: new Date().toISOString(),
        data: { call: { id: 'call_1' } },
      });
      const post = async (secret: string) =>
        (
          await fetch(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'service-signature': await signWebhook(body, secret),
            },
            body,
          })
        ).status;
      expect([await post('whsec_webpack'), await post('whsec_wrong')]).toEqual([200, 401]);
      expect(ran).toEqual(['evt_webpack']);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  }, 120_000);
});
