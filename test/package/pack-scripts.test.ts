/**
 * `npm pack` and `npm publish` build dist/ first (the `prepack` script), so a stale or missing
 * dist/ is never shipped; the package tests, which build once themselves, pack without it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packTarball, repoRoot } from '../../scripts/lib/tarball.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('packing', () => {
  it('npm pack runs the build first (prepack), so dist/ is never shipped stale', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.scripts.build).toBe('tsup');
  });

  it('packTarball packs what is built, without running prepack (no second build)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'telephony-sdk-pack-fixture-'));
    made.push(dir);
    writeFileSync(join(dir, 'index.js'), 'export {};\n');
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'pack-fixture',
        version: '1.0.0',
        files: ['index.js'],
        scripts: { prepack: `node -e "require('node:fs').writeFileSync('prepack-ran', '')"` },
      }),
    );
    const tarball = packTarball(dir);
    made.push(dirname(tarball));
    expect(existsSync(tarball)).toBe(true);
    expect(existsSync(join(dir, 'prepack-ran'))).toBe(false);
  }, 60_000);
});
