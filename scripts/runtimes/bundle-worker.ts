/**
 * Bundles a Worker or an Edge function the way its platform's tooling does (esbuild, ESM, ES2022,
 * the platform's export conditions first; `node:` builtins left to the runtime), in memory.
 */
import { build } from 'esbuild';

export interface WorkerBundle {
  /** The module source (ESM) or script (IIFE) to hand to the runtime. */
  contents: string;
  /** Where its relative imports resolve from. */
  resolveDir: string;
  /** `workerd` for Cloudflare (wrangler's conditions), `edge-light` for Vercel's Edge Runtime. */
  condition: 'workerd' | 'edge-light';
  /** `esm` for a module Worker; `iife` for a script that calls `addEventListener('fetch', …)`. */
  format: 'esm' | 'iife';
  /** Import specifiers replaced by files, e.g. `telephony-sdk` → the built package's entry. */
  alias?: Record<string, string>;
}

export async function bundleWorker(bundle: WorkerBundle): Promise<string> {
  const result = await build({
    stdin: {
      contents: bundle.contents,
      resolveDir: bundle.resolveDir,
      loader: 'ts',
      sourcefile: 'worker.ts',
    },
    bundle: true,
    write: false,
    format: bundle.format,
    platform: 'neutral',
    target: 'es2022',
    conditions: [bundle.condition, 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['node:*'],
    alias: bundle.alias ?? {},
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
