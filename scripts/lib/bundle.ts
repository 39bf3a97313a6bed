import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

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

/**
 * Bundles `source` (an ES module, resolved from `resolveDir`) the way a browser app's bundler
 * would: ESM, minified, tree-shaken, the `browser` condition. `node:` builtins stay external so
 * a static one shows up in `externalImports` instead of failing the build.
 */
export async function measureBrowserBundle(source: string, resolveDir: string): Promise<BundleMeasure> {
  const result = await build({
    stdin: { contents: source, resolveDir, loader: 'ts', sourcefile: 'size-entry.ts' },
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
