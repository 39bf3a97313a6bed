import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * esbuild plugin for tsup's browser-facing builds: src/core/load.ts (pacing, the client-credentials
 * flow and the mapping of error answers in the module graph) becomes src/core/load.browser.ts (each
 * loaded on first use, a chunk of its own), so a browser client with a static token and no pacing does
 * not download them up front.
 */
export const browserLoaders: Plugin = {
  name: 'browser-loaders',
  setup(build) {
    build.onResolve({ filter: /(^|\/)load\.js$/ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (!target.endsWith('/src/core/load.js')) return undefined;
      return { path: target.replace(/load\.js$/, 'load.browser.ts') };
    });
  },
};
