/**
 * Whitespace-only minification of the built files, for the package's size: every `.js` and `.cjs`
 * under a build's directory loses its indentation and line breaks, and its map is carried through
 * (esbuild reads the file's own map, given inline, and maps the result to the same sources). Names
 * are not mangled and syntax is not rewritten: an installed file still reads as the same code, a
 * stack frame without source maps still names the SDK's functions, and a bundler that minifies the
 * app gets the very same bundle as from the unminified files (`npm run size` reports the same bytes).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { transform } from 'esbuild';

const MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

/** Minifies the whitespace of each `.js`/`.cjs` under `dir` that `only` accepts, and its `.map`. */
export async function minifyWhitespace(
  dir: string,
  only: (path: string) => boolean = () => true,
): Promise<void> {
  const entries = await readdir(dir, { recursive: true });
  for (const entry of entries.filter((name) => /\.c?js$/.test(name) && only(name))) {
    const file = join(dir, entry);
    const [code, map] = await Promise.all([readFile(file, 'utf8'), readFile(`${file}.map`, 'utf8')]);
    const inlineMap = `//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}`;
    const result = await transform(`${code.replace(MAP_COMMENT, '\n')}${inlineMap}\n`, {
      loader: 'js',
      minifyWhitespace: true,
      sourcemap: 'external',
      sourcefile: basename(file),
    });
    await Promise.all([
      writeFile(file, `${result.code}//# sourceMappingURL=${basename(file)}.map\n`),
      writeFile(`${file}.map`, result.map),
    ]);
  }
}
