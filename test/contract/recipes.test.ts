/**
 * A recipe in the docs is the file the tests run: the ```ts block under `<!-- recipe: <path> -->`
 * must be that file's text, so the page cannot drift from what test/integration/frameworks.test.ts
 * runs in each framework.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/compile.js';

const MARKER = /^<!-- recipe: (\S+) -->\n```ts\n([\s\S]*?)\n```$/gm;
const recipes = [...readFileSync(`${root}/docs/webhooks.md`, 'utf8').matchAll(MARKER)].map(
  ([, path = '', code = '']) => ({ path, code }),
);

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
