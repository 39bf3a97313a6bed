/**
 * The builds the package ships, and the tests that run against each of them (vitest.config.ts makes
 * one project per build, aliasing `telephony-sdk` and its subpaths to that build's files):
 * what ships is what is tested. test/package/build-graphs.test.ts fails when tsup.config.ts builds
 * something this list does not name, or when a build's module graph differs from the sources'.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** One shipped build: the file each public entry resolves to in it (package.json `exports`). */
export interface ShippedBuild {
  /** The vitest project's name is `build:<name>`. */
  name: string;
  /** tsup's output directory and format for the build (tsup.config.ts). */
  outDir: string;
  format: 'esm' | 'cjs';
  entries: {
    'telephony-sdk': string;
    'telephony-sdk/webhooks': string;
    'telephony-sdk/redis': string;
  };
}

export const SHIPPED_BUILDS: readonly ShippedBuild[] = [
  {
    // `import` on Node (the `node` condition): ky, zod and eventemitter3 bundled in. The redis
    // entry has no Node build of its own: Node loads dist/redis.js.
    name: 'node-esm',
    outDir: 'dist/node',
    format: 'esm',
    entries: {
      'telephony-sdk': 'dist/node/index.js',
      'telephony-sdk/webhooks': 'dist/node/webhooks.js',
      'telephony-sdk/redis': 'dist/redis.js',
    },
  },
  {
    // Every `require`: the dependencies bundled in.
    name: 'cjs',
    outDir: 'dist',
    format: 'cjs',
    entries: {
      'telephony-sdk': 'dist/index.cjs',
      'telephony-sdk/webhooks': 'dist/webhooks.cjs',
      'telephony-sdk/redis': 'dist/redis.cjs',
    },
  },
  {
    // Bundlers, browsers and workers: the dependencies imported, shared with the app's.
    name: 'esm',
    outDir: 'dist',
    format: 'esm',
    entries: {
      'telephony-sdk': 'dist/index.js',
      'telephony-sdk/webhooks': 'dist/webhooks.js',
      'telephony-sdk/redis': 'dist/redis.js',
    },
  },
];

/** Where the tests that may run against a build live (the sandbox's and the scripts' tests do not use the client). */
const BUILD_TEST_DIRS = [
  'test/contract',
  'test/unit/client',
  'test/unit/core',
  'test/unit/resources',
  'test/unit/webhooks',
];
const BUILD_TEST_EXCLUDED = new Set([
  // Reads the repository's docs and sources, not the SDK's behaviour.
  'test/contract/changelog.test.ts',
  'test/contract/dependency-rules.test.ts',
  'test/contract/doc-snippets.test.ts',
  'test/contract/editor-types.test.ts',
]);

/** Relative module specifiers of `code` that load at run time (`import type` is erased). */
function runtimeSpecifiers(code: string): string[] {
  const runtime = code.replace(/\bimport\s+type\s[^;]*;/g, '').replace(/\bexport\s+type\s[^;]*;/g, '');
  return [...runtime.matchAll(/(?:from\s*|import\s*\(\s*|import\s+|mock\(\s*)['"](\.[^'"]+)['"]/g)].map(
    (match) => match[1] as string,
  );
}

/** True when `file` and the test helpers it imports load nothing from src/ but through `telephony-sdk`. */
function usesPublicEntriesOnly(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return true;
  seen.add(file);
  for (const specifier of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
    if (relative(repoRoot, target).startsWith('src/')) return false;
    if (!usesPublicEntriesOnly(target, seen)) return false;
  }
  return true;
}

/**
 * The test files that run against every shipped build: each one under {@link BUILD_TEST_DIRS} that
 * reaches the SDK through its public entries only (a test that imports src/ itself would mix two
 * copies of the SDK's classes). Found, not listed: a new test of the public API joins them.
 */
export function buildTests(): string[] {
  return BUILD_TEST_DIRS.flatMap((dir) =>
    readdirSync(join(repoRoot, dir))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${dir}/${name}`),
  ).filter((file) => !BUILD_TEST_EXCLUDED.has(file) && usesPublicEntriesOnly(join(repoRoot, file)));
}
