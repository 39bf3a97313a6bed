/**
 * The framework recipes of docs/webhooks.md: each ```ts block under `<!-- recipe: <path> -->`, with
 * the path it names. test/contract/recipes.test.ts checks each is that file's text;
 * test/package/frameworks.test.ts runs each block, as the page shows it, over the packed package.
 */
import { readFileSync } from 'node:fs';
import { root } from './compile.js';

const MARKER = /^<!-- recipe: (\S+) -->\n```ts\n([\s\S]*?)\n```$/gm;

export interface DocRecipe {
  /** The file of examples/frameworks/ the block is, relative to the repository's root. */
  path: string;
  /** The block's text. */
  code: string;
}

export function docRecipes(): DocRecipe[] {
  return [...readFileSync(`${root}/docs/webhooks.md`, 'utf8').matchAll(MARKER)].map(
    ([, path = '', code = '']) => ({ path, code }),
  );
}
