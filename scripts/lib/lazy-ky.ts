import type { Plugin } from 'esbuild';

/**
 * esbuild plugin for the builds that bundle ky (the Node ESM build in dist/node/ and the CJS build): the SDK's `import … from 'ky'`
 * gets a stand-in that evaluates ky on the first request instead of when the package is loaded.
 * Importing ky makes Node load its fetch implementation (ky's feature checks construct a streamed
 * `Request` and read `FormData`: undici, web streams and zlib, ≈ 50 ms), which a process that only
 * loads the SDK, or constructs a client it has not used yet, does not need (docs/dev/performance.md,
 * Cold start). esbuild wraps a module reached through `require()` in a lazy initialiser, in either
 * output format, so ky runs when the stand-in first asks for it.
 *
 * The stand-in has exactly the values the SDK imports: `ky.create` (its instance is created on the
 * first request; ky.create only merges the options it is given, so nothing that could fail moves),
 * and `HTTPError` and `TimeoutError` for `instanceof` (no ky error exists before ky has run). An
 * import of anything else fails the build.
 */
export const lazyKy: Plugin = {
  name: 'lazy-ky',
  setup(build) {
    build.onResolve({ filter: /^ky$/ }, (args) =>
      args.namespace === 'lazy-ky' ? undefined : { path: 'ky', namespace: 'lazy-ky' },
    );
    build.onLoad({ filter: /^ky$/, namespace: 'lazy-ky' }, () => ({
      resolveDir: process.cwd(),
      loader: 'js',
      contents: `
let loaded;
const ky = () => (loaded ??= require('ky'));
const errorClass = (name) => ({
  [Symbol.hasInstance]: (value) => loaded !== undefined && value instanceof loaded[name],
});
export const HTTPError = errorClass('HTTPError');
export const TimeoutError = errorClass('TimeoutError');
export default {
  create(defaults) {
    let instance;
    return (input, options) => (instance ??= ky().default.create(defaults))(input, options);
  },
};
`,
    }));
  },
};
