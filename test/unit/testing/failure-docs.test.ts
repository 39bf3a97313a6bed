/**
 * docs/sandbox.md, "Test your failure handling": every example runs, one module each, after the
 * section's first block (the imports, the sandbox and the client they share), and together they
 * show every fault kind. A changed fault, or an SDK that handles one differently, fails here
 * instead of misleading a reader. (test/contract/doc-snippets.test.ts type-checks them too.)
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FAULT_KINDS } from '../../../src/testing/faults.js';

const root = new URL('../../../', import.meta.url);
const doc = readFileSync(new URL('docs/sandbox.md', root), 'utf8');
const TITLE = '### Test your failure handling\n';

function sectionBlocks(): string[] {
  const start = doc.indexOf(TITLE);
  expect(start).toBeGreaterThan(-1);
  const rest = doc.slice(start + TITLE.length);
  const section = rest.slice(0, rest.search(/^### /m));
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

const [shared = '', ...examples] = sectionBlocks();
// Inside the repository (git-ignored .tmp/), so its imports resolve as a test file's do.
const dir = join(new URL('.tmp/', root).pathname, `failure-docs-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/sandbox.md: Test your failure handling', () => {
  it('has an example for every fault kind', () => {
    const shown = new Set(examples.flatMap((code) => [...code.matchAll(/kind: '(\w+)'/g)].map((m) => m[1])));
    expect([...shown].sort()).toEqual([...FAULT_KINDS].sort());
  });

  it.each(examples.map((code, index) => [index + 1, code] as const))(
    'example %i runs',
    async (index, code) => {
      const file = join(dir, `example-${index}.ts`);
      writeFileSync(file, `${shared}\n${code}\nexport const finished = true;\n`);
      try {
        const module = (await import(pathToFileURL(file).href)) as { finished?: boolean };
        expect(module.finished).toBe(true);
      } finally {
        vi.useRealTimers();
      }
    },
  );
});
