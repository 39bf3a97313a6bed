/**
 * `telephony-sdk/webhooks` as built: the entry file and every chunk it reaches import neither
 * ky nor zod, and no node builtin statically (edge runtimes and browsers have none).
 * `telephony-sdk/redis`: reached by no other entry, and importing no package at all (the user passes
 * the Redis client in; `redis` and `ioredis` are optional peer dependencies).
 * The same for the builds that bundle ky, zod and eventemitter3 instead of importing them — the Node
 * ESM build (dist/node/, package.json's `node` condition under `import`: the client and the
 * receiver) and the CJS build (dist/*.cjs, every `require`): there, no file the receiver reaches
 * may hold ky's or zod's code either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from '../../scripts/lib/tarball.js';

const IMPORT =
  /(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bexport\s*[\w*{}\s,$]+\s*from\s*|\brequire\()\s*['"]([^'"]+)['"]/g;

function specifiersIn(code: string): string[] {
  return [...code.matchAll(IMPORT)].map((match) => match[1] ?? '');
}

/** Every bare or relative specifier imported statically by `file` and the local files it reaches (`seen`). */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  const specifiers = new Set<string>();
  if (seen.has(file)) return specifiers;
  seen.add(file);
  for (const specifier of specifiersIn(readFileSync(file, 'utf8'))) {
    if (specifier.startsWith('.')) {
      for (const nested of staticImports(join(dirname(file), specifier), seen)) specifiers.add(nested);
    } else {
      specifiers.add(specifier);
    }
  }
  return specifiers;
}

/**
 * Code only each package holds (the build minifies whitespace, which drops esbuild's
 * `// node_modules/<name>/…` headers): ky's HTTPError message, zod's base class's registration,
 * eventemitter3's `prefixed` flag. The SDK's own sources hold none of them (checked below).
 */
const PACKAGE_CODE: Record<string, RegExp> = {
  eventemitter3: /\.prefixed\s*=/,
  ky: /Request failed with \$\{reason\}/,
  zod: /\$constructor\(\s*["']\$ZodType["']/,
};

/** Packages whose code a file holds. */
function bundledPackages(files: Iterable<string>): string[] {
  const texts = [...files].map((file) => readFileSync(file, 'utf8'));
  return Object.keys(PACKAGE_CODE).filter((name) => texts.some((text) => PACKAGE_CODE[name]?.test(text)));
}

/** Every local file `entry` reaches, itself included. */
function reachedFiles(entry: string): Set<string> {
  const files = new Set<string>();
  staticImports(entry, files);
  return files;
}

beforeAll(() => ensureBuilt(), 120_000);

/** The ESM build of dist/ (dependencies imported) and the builds that bundle them. */
const WEBHOOKS_ENTRIES = ['dist/webhooks.js', 'dist/webhooks.cjs', 'dist/node/webhooks.js'];
const bundlesDependencies = (entry: string) => entry.startsWith('dist/node/') || entry.endsWith('.cjs');

describe.each(WEBHOOKS_ENTRIES)('%s and its chunks', (entry) => {
  it('import no ky, no zod and no node builtin', () => {
    const imports = [...staticImports(join(repoRoot, entry))];
    expect(imports.filter((s) => /^(ky|zod)(\/|$)|^node:|^(crypto|http|buffer)$/.test(s))).toEqual([]);
  });

  it("hold no ky or zod code (the bundling builds put them in the client's files only)", () => {
    expect(bundledPackages(reachedFiles(join(repoRoot, entry)))).toEqual(
      bundlesDependencies(entry) ? ['eventemitter3'] : [],
    );
  });
});

// The redis entry is built once, in dist/ (Node loads it from there too: it imports no dependency).
describe.each(['dist/redis.js', 'dist/redis.cjs'])('%s and its chunks', (entry) => {
  it('import no package and no node builtin: nothing to install but the client the user passes in', () => {
    expect([...staticImports(join(repoRoot, entry))]).toEqual([]);
  });

  it("hold no package's code", () => {
    expect(bundledPackages(reachedFiles(join(repoRoot, entry)))).toEqual([]);
  });
});

describe.each([
  'dist/index.js',
  'dist/index.cjs',
  'dist/node/index.js',
  ...WEBHOOKS_ENTRIES,
  'dist/testing.cjs',
])('%s and its chunks', (entry) => {
  it('never reach the redis entry or its code', () => {
    const files = new Set<string>();
    const imports = staticImports(join(repoRoot, entry), files);
    expect([...imports].filter((s) => /^(redis|ioredis)(\/|$)/.test(s))).toEqual([]);
    expect([...files].filter((file) => /[/\\]redis\.c?js$/.test(file))).toEqual([]);
    // The Lua scripts are the redis entry's own code: no reached file may hold them.
    expect([...files].filter((file) => readFileSync(file, 'utf8').includes("redis.call('TIME')"))).toEqual(
      [],
    );
  });
});

describe.each([
  ['dist/node/index.js', 'dist/node/webhooks.js'],
  ['dist/index.cjs', 'dist/webhooks.cjs'],
])('%s (a build that bundles the dependencies)', (entry, webhooks) => {
  it('holds ky, zod and eventemitter3 and imports none of them (so the checks above mean something)', () => {
    const files = reachedFiles(join(repoRoot, entry));
    expect(bundledPackages(files)).toEqual(['eventemitter3', 'ky', 'zod']);
    // 'telephony-sdk': a doc comment's example in the bundle, which the scanner reads as an import.
    const imports = [...staticImports(join(repoRoot, entry))];
    expect(imports.filter((s) => !s.startsWith('node:') && s !== 'telephony-sdk')).toEqual([]);
  });

  it('shares one TelephonyError with the webhooks entry of its build (one chunk defines it)', () => {
    const definitions = (start: string) =>
      [...reachedFiles(join(repoRoot, start))].filter((file) =>
        /\b(?:var|let|const) TelephonyError\s*=|\bclass TelephonyError\b/.test(readFileSync(file, 'utf8')),
      );
    const fromIndex = definitions(entry);
    expect(fromIndex).toHaveLength(1);
    expect(definitions(webhooks)).toEqual(fromIndex);
  });
});

it('the redis check above would see the scripts (so an empty list means something)', () => {
  expect(readFileSync(join(repoRoot, 'dist/redis.js'), 'utf8')).toContain("redis.call('TIME')");
  expect(readFileSync(join(repoRoot, 'dist/redis.cjs'), 'utf8')).toContain("redis.call('TIME')");
});

it("the package markers match the packages' own code and none of the SDK's sources", () => {
  const code = (path: string) => readFileSync(join(repoRoot, 'node_modules', path), 'utf8');
  expect(PACKAGE_CODE.ky?.test(code('ky/distribution/errors/HTTPError.js'))).toBe(true);
  expect(PACKAGE_CODE.zod?.test(code('zod/v4/core/schemas.js'))).toBe(true);
  expect(PACKAGE_CODE.eventemitter3?.test(code('eventemitter3/index.js'))).toBe(true);
  const sources = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  expect(sources.length).toBeGreaterThan(50);
  expect(bundledPackages(sources.map((file) => join(repoRoot, 'src', file)))).toEqual([]);
});

it('the import scanner finds minified ESM and CJS imports (so an empty list above means something)', () => {
  const code = `import ky from"ky";import{a as b}from'zod/mini';export*from"./chunk.js";var c=require("node:crypto");`;
  expect(specifiersIn(code)).toEqual(['ky', 'zod/mini', './chunk.js', 'node:crypto']);
});
