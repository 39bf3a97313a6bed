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
 * The packed size this package keeps under (bytes): issue 20's goal, met at 295 049 B measured after
 * the sources lost their comments (dist/src/), the maps their column-level detail, the code its
 * whitespace, the Node build its CJS copy (one CJS build serves every `require`) and the sandbox its
 * ESM copy, its maps and its TypeScript (586 724 B before; 968 545 B before issue 20). Raised to
 * 301 000 B when every result field got its doc in the declarations and `legacyCalls` was added
 * (300 362 B measured): the docs are what an editor shows. Raised to 358 000 B (356 617 B measured)
 * for the attempt loop, idempotency look-ups, live lists, waitFor, logs, middleware, totalTimeout,
 * deprecation warnings, faults and the receiver's reasons: a ratchet at what ships, not a goal met.
 * Raised to 376 000 B (375 953 B measured): the merges since took it to 369 255 B, and the log lines,
 * the middleware chain and the deprecation-header reading, each a chunk of its own in every build
 * (39 files more, each with its map), +6 698 B. Raised to 378 000 B (377 225 B measured) for the
 * framework-recipe docs and the CHANGELOG of the same merges, and the sandbox's list of ports fetch
 * refuses.
 */
const PACKED_LIMIT = 378_000;

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
  it('ships dist/ (with the .ts sources of its maps in dist/src/), README.md, CHANGELOG.md, LICENSE and package.json only: no PNG, no docs/', () => {
    const paths = packed.files.map((file) => file.path);
    const outside = paths.filter((path) => !path.startsWith('dist/'));
    expect(outside.sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
    expect(paths.filter((path) => path.startsWith('dist/src/') && !path.endsWith('.ts'))).toEqual([]);
    expect(paths).toContain('dist/src/client.ts');
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

describe('the sources the maps name (dist/src/)', () => {
  const shipped = () =>
    packed.files
      .filter((file) => file.path.startsWith('dist/src/'))
      .map((file) => file.path.slice('dist/'.length));

  it('are files of src/ without their comments, every line and column of code where it is in src/', () => {
    expect(shipped().length).toBeGreaterThan(60);
    let before = 0;
    let after = 0;
    for (const path of shipped()) {
      const original = readFileSync(join(repoRoot, path), 'utf8');
      const copy = readFileSync(join(repoRoot, 'dist', path), 'utf8');
      before += original.length;
      after += copy.length;
      const lines = original.split('\n');
      const copied = copy.split('\n');
      expect(copied.length, path).toBe(lines.length);
      for (const [i, line] of copied.entries()) {
        // Every character kept is the original's at the same column; the rest were comment or blank.
        const moved = [...line].filter((char, column) => char !== ' ' && char !== lines[i]?.[column]);
        expect(moved, `${path}:${i + 1}`).toEqual([]);
      }
    }
    // Comments are about half of src/: the copy must be markedly smaller, or nothing was stripped.
    expect(after).toBeLessThan(before * 0.7);
    const client = readFileSync(join(repoRoot, 'dist/src/client.ts'), 'utf8');
    expect(client).toContain('export class TelephonyClient');
    expect(client).not.toMatch(/\/\*\*|^\s*\/\/ /m);
  });

  it("leave out the sandbox's: its files ship formatted as built, with no map and no comment naming one", () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths.filter((path) => path.startsWith('dist/src/testing/'))).toEqual([]);
    const sandbox = paths.filter((path) => {
      if (!/\.c?js$/.test(path)) return false;
      return readFileSync(join(repoRoot, path), 'utf8').includes('function createSandbox(');
    });
    expect(sandbox).toHaveLength(1);
    for (const path of [...sandbox, 'dist/cli.cjs']) {
      const code = readFileSync(join(repoRoot, path), 'utf8');
      expect(paths, path).not.toContain(`${path}.map`);
      expect(code, path).not.toContain('sourceMappingURL');
      // Formatted: one statement a line, as tsup wrote it (the minified files are a few long lines).
      expect(code.split('\n').length, path).toBeGreaterThan(code.length / 200);
    }
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
