/**
 * One module graph for every build, and every build tested: tsup.config.ts builds exactly the
 * builds test/builds.ts lists (each of which the build projects of vitest.config.ts test), no build
 * step swaps one module for another, and each build's public entries reach the same SDK sources as
 * the sources themselves do (read from the source maps of every file an entry reaches, lazy chunks
 * included). A build added, or a module swapped in one build only, fails here until it is tested.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin, type PluginBuild } from 'esbuild';
import type { Options } from 'tsup';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../scripts/lib/tarball.js';
import tsupConfig from '../../tsup.config.js';
import { buildTests, repoRoot, SHIPPED_BUILDS, type ShippedBuild } from '../builds.js';

beforeAll(() => ensureBuilt(), 120_000);

const configs = (Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig]) as Options[];

/** Local files a built file loads: static imports, `import()` and `require()` of `./` or `../`. */
const LOCAL_LOAD = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|\brequire\s*\(\s*)["'](\.\.?\/[^"']+)["']/g;

/** Every built file `entry` loads, directly or through others, lazy chunks included. */
function reachedFiles(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const [, specifier] of readFileSync(entry, 'utf8').matchAll(LOCAL_LOAD))
    reachedFiles(resolve(dirname(entry), specifier as string), seen);
  return seen;
}

/** The SDK sources (paths under src/) that the built files hold code of, from their source maps. */
function builtSources(files: Iterable<string>): string[] {
  const sources = new Set<string>();
  for (const file of files) {
    const map = `${file}.map`;
    if (!existsSync(map)) continue;
    const { sources: named } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
    for (const source of named) {
      // The maps name the copies shipped in dist/src/.
      const shipped = relative(join(repoRoot, 'dist'), resolve(dirname(map), source));
      if (shipped.endsWith('.ts')) sources.add(shipped);
    }
  }
  return [...sources].sort();
}

/** The SDK sources with code that `source` (an entry under src/) reaches, lazy imports included. */
async function sourceGraph(source: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [join(repoRoot, source)],
    bundle: true,
    write: false,
    splitting: true,
    format: 'esm',
    outdir: join(repoRoot, 'graph-out'),
    platform: 'neutral',
    metafile: true,
    logLevel: 'silent',
    external: ['ky', 'zod', 'eventemitter3', 'msw', 'redis', 'ioredis', 'node:*'],
  });
  const sources = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      if (bytesInOutput > 0 && input.startsWith('src/')) sources.add(input);
  return [...sources].sort();
}

/** The names of the plugins whose setup registers an `onResolve` callback. */
function resolvingPlugins(plugins: Plugin[]): string[] {
  const resolving: string[] = [];
  for (const plugin of plugins) {
    const recorder = new Proxy({} as PluginBuild, {
      get: (_target, key) => {
        if (key === 'onResolve') return () => resolving.push(plugin.name);
        return key === 'initialOptions' ? {} : () => undefined;
      },
    });
    void plugin.setup(recorder);
  }
  return resolving;
}

/** The entries of `telephony-sdk` whose graph each build must share with the sources. */
const SOURCE_OF: Record<keyof ShippedBuild['entries'], string> = {
  'telephony-sdk': 'src/index.ts',
  'telephony-sdk/webhooks': 'src/webhooks/index.ts',
  'telephony-sdk/redis': 'src/redis/index.ts',
};

describe('the builds tsup makes', () => {
  it('are the builds the build projects test (output directory and format)', () => {
    const made = configs
      .flatMap((config) => {
        const formats = [config.format ?? 'cjs'].flat();
        return formats.map((format) => `${config.outDir ?? 'dist'} ${format}`);
      })
      .sort();
    expect(made).toEqual(SHIPPED_BUILDS.map(({ outDir, format }) => `${outDir} ${format}`).sort());
  });

  it('swap no module: no esbuild plugin of theirs resolves an import', () => {
    expect(resolvingPlugins(configs.flatMap((config) => (config.esbuildPlugins ?? []) as Plugin[]))).toEqual(
      [],
    );
    // The check sees a plugin that does (as the browser-loaders and lazy-ky plugins did).
    const swapper: Plugin = {
      name: 'swapper',
      setup: (b) => b.onResolve({ filter: /^ky$/ }, () => undefined),
    };
    expect(resolvingPlugins([swapper])).toEqual(['swapper']);
  });

  it('are each tested by the public-API tests (the build projects run them)', () => {
    const tests = buildTests();
    expect(tests).toContain('test/contract/api-contract.test.ts');
    expect(tests).toContain('test/contract/shipped-build.test.ts');
    expect(tests.length).toBeGreaterThan(30);
  });
});

describe.each(SHIPPED_BUILDS)('the $name build', (shipped) => {
  it.each(Object.keys(SOURCE_OF) as Array<keyof ShippedBuild['entries']>)(
    '%s reaches the SDK sources its source entry reaches, and no other',
    async (entry) => {
      const built = builtSources(reachedFiles(join(repoRoot, shipped.entries[entry])));
      const sources = await sourceGraph(SOURCE_OF[entry]);
      expect(sources.length).toBeGreaterThan(0);
      // The maps name sources relative to dist/: dist/src/<path> is src/<path>.
      expect(built).toEqual(sources);
    },
  );
});
