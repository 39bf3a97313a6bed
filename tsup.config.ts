import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { defineConfig } from 'tsup';
import { browserLoaders } from './scripts/lib/browser-loaders.js';
import { inlineConsoleAssets } from './scripts/lib/console-assets.js';
import { esmTypeStubs } from './scripts/lib/esm-types.js';
import { esmWrappers } from './scripts/lib/esm-wrappers.js';
import { ownSourceMaps } from './scripts/lib/source-maps.js';

/**
 * The entries of the Node build (package.json's `node` condition): the client and the receiver. The
 * testing and redis entries import none of ky, zod and eventemitter3, so Node loads them from dist/
 * as every other runtime does, and the package does not ship them twice.
 */
const nodeEntries = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
};

/** The public entries (package.json `exports`). */
const publicEntries = {
  ...nodeEntries,
  testing: 'src/testing/index.ts',
  redis: 'src/redis/index.ts',
};

const entry = {
  ...publicEntries,
  // Not public entries: esbuild groups code into chunks by the entries that reach it, so giving
  // the verifier and the receiver entries of their own keeps eventemitter3's import out of the
  // verifier's chunk, and a bundler drops the emitter from a verify-only edge function.
  'internal/webhook-verify': 'src/webhooks/verify.ts',
  'internal/webhook-receiver': 'src/webhooks/receiver.ts',
};

/**
 * The CJS build's maps. tsup's CJS splitting pass (sucrase over esbuild's ESM) names each chunk by
 * its absolute path in the source map's `file` and `sources`: the build machine's directories would
 * ship in the package. Rewritten relative to the map, as esbuild writes every other source. And
 * without `sourcesContent`: the ESM maps beside them carry the same sources' text, which would
 * otherwise ship twice (the tarball's size, test/package/tarball-contents.test.ts).
 */
async function cjsSourceMaps(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true });
  // dist/node/ is the Node build's, rewritten by its own config (built at the same time).
  const ours = entries.filter((name) => name.endsWith('.cjs.map') && !/^node[/\\]/.test(name));
  for (const entry of ours) {
    const file = join(dir, entry);
    const map = JSON.parse(await readFile(file, 'utf8')) as {
      file?: string;
      sources: string[];
      sourcesContent?: unknown;
    };
    const local = (path: string) => (isAbsolute(path) ? relative(dirname(file), path) : path);
    map.sources = map.sources.map(local);
    if (map.file !== undefined) map.file = local(map.file);
    delete map.sourcesContent;
    await writeFile(file, JSON.stringify(map));
  }
}

export default defineConfig([
  {
    // The sandbox's bin too: it shares the testing entry's chunks instead of bundling the sandbox a
    // second time. esbuild keeps its source's `#!` line at the top of dist/cli.js.
    entry: { ...entry, cli: 'src/testing/cli.ts' },
    format: ['esm'],
    // No declarations of its own: each <entry>.d.ts re-exports the CJS build's (scripts/lib/esm-types.ts).
    splitting: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    esbuildPlugins: [inlineConsoleAssets, browserLoaders],
    platform: 'neutral',
    // redis and ioredis are never imported (the user passes a client in); listed so that a stray
    // import could never bundle one.
    external: ['ky', 'zod', 'eventemitter3', 'msw', 'redis', 'ioredis', /^node:/],
  },
  {
    entry,
    format: ['cjs'],
    dts: true,
    // Without splitting, each CJS entry gets its own copy of TelephonyError and
    // `instanceof` breaks across entries.
    splitting: true,
    // Splitting makes tsup turn esbuild's ESM into CJS with sucrase, which rewrites classes with
    // fields into anonymous class expressions (`NotFoundError.name === '_class5'`): esbuild's
    // keepNames pins each class's name. The ESM build keeps its names without it.
    keepNames: true,
    sourcemap: true,
    target: 'es2022',
    esbuildPlugins: [inlineConsoleAssets],
    platform: 'neutral',
    // ky is ESM-only; bundling it keeps `require('telephony-sdk')` working on every Node 20 patch.
    noExternal: ['ky'],
    external: ['zod', 'eventemitter3', 'msw', 'redis', 'ioredis', /^node:/],
    onSuccess: async () => {
      await cjsSourceMaps('dist');
      await esmTypeStubs('dist', Object.keys(publicEntries));
    },
  },
  {
    // The Node build (package.json's `node` condition, dist/node/): ky, zod and eventemitter3
    // bundled in, so a Node process loads a few files instead of zod's graph of ~100 modules
    // (docs/performance.md, Cold start). Bundlers, browsers and workers keep the builds above,
    // whose dependencies stay external and are shared with the app's own copies.
    entry: nodeEntries,
    outDir: 'dist/node',
    // CommonJS only: each ESM entry re-exports it (scripts/lib/esm-wrappers.ts), so `import` and
    // `require` share one copy of the code and one instance of each class.
    format: ['cjs'],
    // One TelephonyError for every entry, as above; keepNames for the CJS pass.
    splitting: true,
    keepNames: true,
    sourcemap: true,
    target: 'node20',
    esbuildPlugins: [inlineConsoleAssets],
    platform: 'node',
    noExternal: ['ky', 'zod', 'eventemitter3'],
    external: ['msw', 'redis', 'ioredis', /^node:/],
    // The maps keep the SDK's own sources (not the dependencies', and no source text: the maps
    // of dist/ carry it), so the package does not ship the same maps twice.
    onSuccess: async () => {
      await ownSourceMaps('dist/node');
      await esmWrappers('dist/node', Object.keys(nodeEntries));
    },
  },
]);
