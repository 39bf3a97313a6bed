/** The console page's three files, served as they are. */
export interface ConsoleAssets {
  html: string;
  js: string;
  css: string;
}

/** File names of the assets, beside this module; the build's plugin reads the same ones. */
export const ASSET_FILES: Record<keyof ConsoleAssets, string> = {
  html: 'page.html',
  js: 'console.js',
  css: 'console.css',
};

/**
 * Read from disk when the sandbox runs from its sources (tests, tsx). The package's build replaces
 * this module by one that returns the files as strings (scripts/lib/console-assets.ts), so the
 * bundles need no file beside them and no `import.meta.url`, which CommonJS has not.
 */
export async function consoleAssets(): Promise<ConsoleAssets> {
  const { readFile } = await import('node:fs/promises');
  const read = (name: string) => readFile(new URL(name, import.meta.url), 'utf8');
  const [html, js, css] = await Promise.all([
    read(ASSET_FILES.html),
    read(ASSET_FILES.js),
    read(ASSET_FILES.css),
  ]);
  return { html, js, css };
}
