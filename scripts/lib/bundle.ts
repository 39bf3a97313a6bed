import { relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';

/** One browser bundle: its minified bytes, gzip bytes, and which input files fed it. */
export interface BundleMeasure {
  minified: number;
  gzip: number;
  /** Minified bytes in the output per input path (from esbuild's metafile). */
  inputs: Record<string, number>;
  /** Imports left external (only `node:` builtins are), e.g. `node:crypto`. */
  externalImports: string[];
  code: string;
}

/** A browser app's bundler: ESM, minified, tree-shaken, the `browser` condition, in memory. */
const BROWSER_APP = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  metafile: true,
  legalComments: 'none',
  external: ['node:*'],
  logLevel: 'silent',
} as const satisfies BuildOptions;

/**
 * Replaces the file `without` (relative to `resolveDir`) by an empty CommonJS module, so its importers
 * still build (a named import of CommonJS is not checked) and the bundle drops the file and whatever
 * only it imported: what the file costs, measured by removing it.
 */
function removing(without: string | undefined, resolveDir: string): Plugin[] {
  if (without === undefined) return [];
  const removed = resolve(resolveDir, without);
  return [
    {
      name: 'remove-file',
      setup(b) {
        b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) =>
          args.path === removed ? { contents: 'module.exports = {}', loader: 'js' } : undefined,
        );
      },
    },
  ];
}

/**
 * Bundles `source` (an ES module, resolved from `resolveDir`) the way a browser app's bundler
 * would: ESM, minified, tree-shaken, the `browser` condition. `node:` builtins stay external so
 * a static one shows up in `externalImports` instead of failing the build. `without`: a file of
 * `resolveDir` left out (see `removing`).
 */
export async function measureBrowserBundle(
  source: string,
  resolveDir: string,
  without?: string,
): Promise<BundleMeasure> {
  const result = await build({
    ...BROWSER_APP,
    plugins: removing(without, resolveDir),
    stdin: { contents: source, resolveDir, loader: 'ts', sourcefile: 'size-entry.ts' },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output');
  const code = output.text;
  return {
    minified: output.contents.byteLength,
    gzip: gzipSync(output.contents, { level: 9 }).byteLength,
    inputs: inputsOf(result.metafile),
    externalImports: externalImportsOf(result.metafile),
    code,
  };
}

function inputsOf(metafile: Metafile): Record<string, number> {
  const out = Object.values(metafile.outputs)[0];
  const inputs: Record<string, number> = {};
  for (const [path, { bytesInOutput }] of Object.entries(out?.inputs ?? {})) inputs[path] = bytesInOutput;
  return inputs;
}

function externalImportsOf(metafile: Metafile): string[] {
  const out = Object.values(metafile.outputs)[0];
  return (out?.imports ?? []).filter((i) => i.external).map((i) => i.path);
}

/** `node_modules/zod/v4/core/x.js` → `zod`; anything outside node_modules → `telephony-sdk`. */
export function packageOf(inputPath: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(inputPath);
  return match?.[1] ?? 'telephony-sdk';
}

/**
 * What a browser loads first from `source`: bundled as a browser app's bundler would with code
 * splitting on, the entry chunk and every chunk it imports statically, each gzipped on its own (each
 * is a file of its own on the wire). Chunks reached only through `import()` are left out: they load
 * when first used. `without` as for {@link measureBrowserBundle}.
 */
export async function measureFirstLoad(
  source: string,
  resolveDir: string,
  without?: string,
): Promise<BundleMeasure> {
  const result = await build({
    entryPoints: ['size-entry'],
    plugins: [
      ...removing(without, resolveDir),
      {
        name: 'size-entry',
        setup(b) {
          b.onResolve({ filter: /^size-entry$/ }, () => ({ path: 'size-entry', namespace: 'size-entry' }));
          b.onLoad({ filter: /.*/, namespace: 'size-entry' }, () => ({
            contents: source,
            loader: 'ts',
            resolveDir,
          }));
        },
      },
    ],
    ...BROWSER_APP,
    splitting: true,
    outdir: 'size-out',
  });
  const outputs = result.metafile.outputs;
  // The size entry's own chunk: each chunk behind an `import()` is an entry point of its own too.
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === 'size-entry:size-entry');
  if (entry === undefined) throw new Error('esbuild produced no entry chunk');
  const first = new Set<string>();
  const visit = (path: string) => {
    if (first.has(path)) return;
    first.add(path);
    for (const i of outputs[path]?.imports ?? [])
      if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  const files = result.outputFiles.filter((file) => first.has(relative(process.cwd(), file.path)));
  const inputs: Record<string, number> = {};
  for (const path of first)
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path]?.inputs ?? {}))
      inputs[input] = bytesInOutput;
  return {
    minified: files.reduce((sum, file) => sum + file.contents.byteLength, 0),
    gzip: files.reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).byteLength, 0),
    inputs,
    externalImports: [...first].flatMap((path) =>
      (outputs[path]?.imports ?? []).filter((i) => i.external).map((i) => i.path),
    ),
    code: files.map((file) => file.text).join('\n'),
  };
}
