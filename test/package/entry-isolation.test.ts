/**
 * `telephony-sdk/webhooks` as built: the entry file and every chunk it reaches import neither
 * ky nor zod, and no node builtin statically (edge runtimes and browsers have none).
 * `telephony-sdk/redis`: reached by no other entry, and importing no package at all (the user passes
 * the Redis client in; `redis` and `ioredis` are optional peer dependencies).
 */
import { readFileSync } from 'node:fs';
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

beforeAll(() => ensureBuilt(), 120_000);

describe.each(['webhooks.js', 'webhooks.cjs'])('dist/%s and its chunks', (entry) => {
  it('import no ky, no zod and no node builtin', () => {
    const imports = [...staticImports(join(repoRoot, 'dist', entry))];
    expect(imports.filter((s) => /^(ky|zod)(\/|$)|^node:|^(crypto|http|buffer)$/.test(s))).toEqual([]);
  });
});

describe.each(['redis.js', 'redis.cjs'])('dist/%s and its chunks', (entry) => {
  it('import no package and no node builtin: nothing to install but the client the user passes in', () => {
    expect([...staticImports(join(repoRoot, 'dist', entry))]).toEqual([]);
  });
});

describe.each(['index.js', 'index.cjs', 'webhooks.js', 'webhooks.cjs', 'testing.js', 'testing.cjs'])(
  'dist/%s and its chunks',
  (entry) => {
    it('never reach the redis entry or its code', () => {
      const files = new Set<string>();
      const imports = staticImports(join(repoRoot, 'dist', entry), files);
      expect([...imports].filter((s) => /^(redis|ioredis)(\/|$)/.test(s))).toEqual([]);
      expect([...files].filter((file) => /[/\\]redis\.c?js$/.test(file))).toEqual([]);
      // The Lua scripts are the redis entry's own code: no reached file may hold them.
      expect([...files].filter((file) => readFileSync(file, 'utf8').includes("redis.call('TIME')"))).toEqual(
        [],
      );
    });
  },
);

it('the redis check above would see the scripts (so an empty list means something)', () => {
  expect(readFileSync(join(repoRoot, 'dist/redis.js'), 'utf8')).toContain("redis.call('TIME')");
  expect(readFileSync(join(repoRoot, 'dist/redis.cjs'), 'utf8')).toContain("redis.call('TIME')");
});

it('the import scanner finds minified ESM and CJS imports (so an empty list above means something)', () => {
  const code = `import ky from"ky";import{a as b}from'zod/mini';export*from"./chunk.js";var c=require("node:crypto");`;
  expect(specifiersIn(code)).toEqual(['ky', 'zod/mini', './chunk.js', 'node:crypto']);
});
