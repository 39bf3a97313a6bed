import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';
import { ASSET_FILES } from '../../src/testing/console/assets.js';

/**
 * esbuild plugin for tsup: replaces src/testing/console/assets.ts by a module that returns the
 * console's HTML, JS and CSS as strings, so the built sandbox and CLI serve them with no file
 * beside the bundle (and the CommonJS build needs no `import.meta.url`).
 */
export const inlineConsoleAssets: Plugin = {
  name: 'inline-console-assets',
  setup(build) {
    build.onLoad({ filter: /[\\/]testing[\\/]console[\\/]assets\.ts$/ }, async (args) => {
      const dir = dirname(args.path);
      const entries = await Promise.all(
        Object.entries(ASSET_FILES).map(async ([key, file]) => [
          key,
          await readFile(join(dir, file), 'utf8'),
        ]),
      );
      const assets = JSON.stringify(Object.fromEntries(entries));
      return {
        contents: `export async function consoleAssets() { return ${assets}; }\n`,
        loader: 'js',
        watchFiles: Object.values(ASSET_FILES).map((file) => join(dir, file)),
      };
    });
  },
};
