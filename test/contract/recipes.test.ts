/**
 * A recipe in the docs is a file of examples/frameworks/: the ```ts block under
 * `<!-- recipe: <path> -->` must be that file's text, which typecheck checks against the SDK's
 * types (test/package/frameworks.test.ts runs the blocks themselves in each framework).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/compile.js';
import { docRecipes } from '../helpers/doc-recipes.js';

const recipes = docRecipes();

describe('docs/webhooks.md framework recipes', () => {
  it('shows one for each framework the tests run', () => {
    expect(recipes.map(({ path }) => path).sort()).toEqual(
      ['express', 'express-json-first', 'fastify', 'hono', 'koa', 'nest']
        .map((name) => `examples/frameworks/${name}.ts`)
        .sort(),
    );
  });

  it.each(recipes)('$path is the code of the file', ({ path, code }) => {
    expect(code).toBe(readFileSync(`${root}/${path}`, 'utf8').trimEnd());
  });
});
