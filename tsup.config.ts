import { defineConfig } from 'tsup';
import { inlineConsoleAssets } from './scripts/lib/console-assets.js';
import { buildDeclarations } from './scripts/lib/declarations.js';
import { esmTypeStubs } from './scripts/lib/esm-types.js';
import { minifyWhitespace } from './scripts/lib/minify.js';
import { dropMaps, ownSourceMaps } from './scripts/lib/source-maps.js';

/**
 * The entries of the Node ESM build (package.json's `node` condition under `import`): the client and
 * the receiver. The testing and redis entries import none of ky, zod and eventemitter3, so Node
 * loads them from dist/ as every other runtime does, and the package does not ship them twice.
 */
const nodeEntries = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
};

/**
 * The entries of the ESM build of dist/ (package.json `exports`, `import`). Not `./testing`: the
 * sandbox ships once, as CommonJS, which `import` loads too (it is a test tool, where a few
 * milliseconds of start do not count; docs/dev/performance.md, Package size).
 */
const esmEntries = {
  ...nodeEntries,
  redis: 'src/redis/index.ts',
};

/** The public entries (package.json `exports`). */
const publicEntries = {
  ...esmEntries,
  testing: 'src/testing/index.ts',
};

/**
 * Not public entries: esbuild groups code into chunks by the entries that reach it, so giving the
 * verifier and the receiver entries of their own keeps eventemitter3's import out of the
 * verifier's chunk, and a bundler drops the emitter from a verify-only edge function.
 */
const webhookParts = {
  'internal/webhook-verify': 'src/webhooks/verify.ts',
  'internal/webhook-receiver': 'src/webhooks/receiver.ts',
};

/** Files of dist/ itself (not of the Node build in dist/node/, which its own config rewrites). */
const distFiles = (extension: string) => (path: string) =>
  path.endsWith(extension) && !/^node[/\\]/.test(path);

/** The sandbox's sources (src/testing/): its own files ship formatted and without maps. */
const sandboxSource = (source: string) => /(^|[/\\])src[/\\]testing[/\\]/.test(source);

/**
 * What every build does to its output before it ships (docs/dev/performance.md, Package size): files
 * built from the sandbox's sources alone stay as tsup wrote them, formatted, with no map (a test
 * tool's code, readable as it is, and none of its TypeScript ships); every other file is
 * whitespace minified and maps to the SDK's own sources, by line, which the package ships in
 * dist/src/ (scripts/lib/minify.ts, scripts/lib/source-maps.ts).
 */
async function finish(dir: string, extension?: string): Promise<void> {
  const only = extension === undefined ? () => true : distFiles(extension);
  const unmapped = await dropMaps(dir, only, sandboxSource);
  await minifyWhitespace(dir, (path) => only(path) && !unmapped.has(path));
  await ownSourceMaps(dir, extension === undefined ? undefined : distFiles(`${extension}.map`));
}

export default defineConfig([
  {
    entry: { ...esmEntries, ...webhookParts },
    format: ['esm'],
    // No declarations of its own: each <entry>.d.ts re-exports the CJS build's (scripts/lib/esm-types.ts).
    splitting: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    esbuildPlugins: [inlineConsoleAssets],
    platform: 'neutral',
    // redis and ioredis are never imported (the user passes a client in); listed so that a stray
    // import could never bundle one.
    external: ['ky', 'zod', 'eventemitter3', 'msw', 'redis', 'ioredis', /^node:/],
    onSuccess: () => finish('dist', '.js'),
  },
  {
    // The one CommonJS build, what `require` resolves to everywhere (Node included): ky, zod and
    // eventemitter3 bundled in, as in the Node build below, since ky is ESM-only (bundling it keeps
    // `require('telephony-sdk')` working on every Node 20 patch) and a `require` on Node should load
    // a few files, not zod's graph (docs/dev/performance.md, Cold start). Bundlers that match `module`
    // (listed first under `require`) take dist/*.js and share the app's copies instead. The sandbox's
    // bin too: it shares the testing entry's chunks instead of bundling the sandbox a second time
    // (its source's `#!` line stays at the top of dist/cli.cjs).
    entry: { ...publicEntries, ...webhookParts, cli: 'src/testing/cli.ts' },
    format: ['cjs'],
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
    noExternal: ['ky', 'zod', 'eventemitter3'],
    external: ['msw', 'redis', 'ioredis', /^node:/],
    onSuccess: async () => {
      await finish('dist', '.cjs');
      // Declarations for the public entries (not for the bin, nor the chunking entries), built here
      // rather than by tsup's `dts`, whose shared files are named by a hash (scripts/lib/declarations.ts).
      await buildDeclarations('dist', publicEntries);
      await esmTypeStubs('dist', Object.keys(esmEntries));
    },
  },
  {
    // The Node build of `import` (package.json's `node` condition, dist/node/): ky, zod and
    // eventemitter3 bundled in, so a Node process loads a few files instead of zod's graph of ~100
    // modules (docs/dev/performance.md, Cold start). Bundlers, browsers and workers keep the ESM build
    // above, whose dependencies stay external and are shared with the app's own copies. `require`
    // needs no build of its own for Node: the CJS build above already bundles them.
    entry: nodeEntries,
    outDir: 'dist/node',
    format: ['esm'],
    // One TelephonyError for every entry, as above.
    splitting: true,
    sourcemap: true,
    target: 'node20',
    esbuildPlugins: [inlineConsoleAssets],
    platform: 'node',
    noExternal: ['ky', 'zod', 'eventemitter3'],
    external: ['msw', 'redis', 'ioredis', /^node:/],
    onSuccess: () => finish('dist/node'),
  },
]);
