/**
 * One set of declarations for both conditions: `<entry>.d.cts` (CommonJS, what
 * `require` resolves to) and each `<entry>.d.ts` that `import` resolves to re-exports it. TypeScript
 * lets an ES module import a CommonJS module's named exports, as Node does, so ESM and CJS
 * consumers see the very same types (one `TelephonyError` type, not two identical ones) and the
 * package ships them once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes `<dir>/<name>.d.ts` as `export * from './<name>.cjs'`, for each name. */
export async function esmTypeStubs(dir: string, names: string[]): Promise<void> {
  for (const name of names) {
    await writeFile(join(dir, `${name}.d.ts`), `export * from './${name}.cjs';\n`);
  }
}
