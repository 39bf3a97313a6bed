/**
 * The Node build's ESM entries (dist/node/<entry>.js): each re-exports its CommonJS twin by name,
 * so `import` and `require` on Node load the same file — one copy of the code in the package, one
 * instance of every class per process (an error thrown under `require` is `instanceof` the class an
 * ESM module imported). Node finds the names of a CommonJS module's `exports.X = X` statically
 * (cjs-module-lexer), which the named `export { … } from` needs; the names are read from the
 * module itself, so the list cannot drift from what the build exports.
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);

/** Writes `<dir>/<name>.js` re-exporting every named export of `<dir>/<name>.cjs`, for each name. */
export async function esmWrappers(dir: string, names: string[]): Promise<void> {
  for (const name of names) {
    const cjs = resolve(dir, `${name}.cjs`);
    const exported = Object.keys(require(cjs) as object)
      .filter((key) => key !== '__esModule' && key !== 'default')
      .sort();
    await writeFile(resolve(dir, `${name}.js`), `export { ${exported.join(', ')} } from './${name}.cjs';\n`);
  }
}
