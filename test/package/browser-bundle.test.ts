/**
 * `telephony-sdk/testing` in browser code (a component test, a Storybook story) bundles with no
 * bundler setting: what package.json's exports give every bundler (dist/testing.cjs) holds no static
 * `require`/`import` of a Node module, since `listen()` loads node:http only when it is called.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from '../../scripts/lib/tarball.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('telephony-sdk/testing for the browser', () => {
  it('esbuild bundles it for platform browser, no externals, without an error or a warning', async () => {
    const result = await build({
      entryPoints: [join(repoRoot, 'dist/testing.cjs')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const code = result.outputFiles.map((file) => file.text).join('\n');
    expect(code).toContain('createSandbox');
    expect(code).not.toMatch(/require\(\s*["'](node:)?http["']\s*\)/);
  });
});
