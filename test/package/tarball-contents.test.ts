/**
 * What `npm pack` puts in the tarball, and how the package reads on npm: the built code, README,
 * CHANGELOG and LICENSE, and the TypeScript sources the source maps name — no screenshots, no
 * internal notes, no source text twice — and the
 * fields npm shows beside it (repository, homepage, bugs, keywords), through which it resolves
 * README's relative links to the repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from '../../scripts/lib/tarball.js';

interface Packed {
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/**
 * The packed size this package keeps under (bytes): a ratchet at what ships, 581 990 B measured after
 * tracing and the console's second pass (523 255 B before them; 968 545 B before issue 20). Issue 20's
 * goal is 300 000 B and is NOT met yet. Of the 523 kB measured before tracing and the console, gzip: the
 * sources the maps resolve to ≈ 127 kB, the maps ≈ 87 kB, the code of dist/ (ESM 72 kB, CJS 83 kB) and
 * of dist/node/ (ESM and CJS, 121 kB), the types 34 kB.
 */
const PACKED_LIMIT = 590_000;

let packed: Packed;
beforeAll(() => {
  ensureBuilt();
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
  });
  packed = (JSON.parse(out) as Packed[])[0]!;
}, 120_000);

const manifest = () =>
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('npm pack', () => {
  it('ships dist/, the .ts of src/, README.md, CHANGELOG.md, LICENSE and package.json only: no PNG, no docs/', () => {
    const paths = packed.files.map((file) => file.path);
    const outside = paths.filter((path) => !path.startsWith('dist/') && !path.startsWith('src/'));
    expect(outside.sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
    expect(paths.filter((path) => path.startsWith('src/') && !path.endsWith('.ts'))).toEqual([]);
    expect(paths).toContain('src/client.ts');
    expect(packed.files.filter((file) => /\.(png|jpe?g|gif|svg)$/.test(file.path))).toEqual([]);
  });

  it(`packs under ${PACKED_LIMIT} bytes`, () => {
    expect(packed.size).toBeLessThanOrEqual(PACKED_LIMIT);
  });

  it('carries each source text once: every map names files the package ships, none embeds their text', () => {
    const shipped = new Set(packed.files.map((file) => file.path));
    const maps = packed.files.filter((file) => file.path.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(10);
    let sources = 0;
    for (const { path } of maps) {
      const map = JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      expect(map.sourcesContent, path).toBeUndefined();
      const missing = map.sources
        .map((source) => join(dirname(path), source))
        .filter((file) => !shipped.has(file));
      expect(missing, path).toEqual([]);
      sources += map.sources.length;
    }
    expect(sources).toBeGreaterThan(100);
  });
});

describe('package.json, as npm shows it', () => {
  it('names the repository, homepage, issue tracker and keywords', () => {
    const pkg = manifest();
    expect(pkg.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/telephony-sdk/telephony-sdk.git',
    });
    expect(pkg.homepage).toBe('https://github.com/telephony-sdk/telephony-sdk#readme');
    expect(pkg.bugs).toEqual({ url: 'https://github.com/telephony-sdk/telephony-sdk/issues' });
    expect(pkg.keywords).toEqual(expect.arrayContaining(['telephony', 'webhooks', 'cloudflare-workers']));
  });

  it("README's relative links name files of the repository, which npm links to through `repository`", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const links: string[] = [];
    for (const [, target = ''] of readme.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
      if (/^[a-z][\w+.-]*:/i.test(target)) continue;
      links.push(target);
      expect(existsSync(join(repoRoot, target)), target).toBe(true);
    }
    expect(links).toContain('docs/webhooks.md');
  });
});
