import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Every module specifier reachable from a file, following relative imports through the source tree.
 * `import type` is left out: the compiler erases it (the receiver's `tracer` option takes its type
 * from `@opentelemetry/api`, which nothing loads).
 */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(
      /(?:import|export)(?!\s+type\s)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g,
    )) {
      if (!spec) continue;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

it('telephony-sdk/webhooks reaches only src/webhooks and src/shared, and no package but eventemitter3', () => {
  const { files, packages } = importGraph(resolve(root, 'src/webhooks/index.ts'));
  for (const file of files) expect(file).toMatch(/\/src\/(webhooks|shared)\//);
  expect([...packages]).toEqual(['eventemitter3']);
});

it('no static node: import in the webhooks entry', () => {
  const { files } = importGraph(resolve(root, 'src/webhooks/index.ts'));
  for (const file of files) expect(readFileSync(file, 'utf8')).not.toMatch(/from\s*['"]node:/);
});

it('reads eventemitter3 through its public API only: no private `_events`, no `prefixed` (issue 18)', () => {
  const { files } = importGraph(resolve(root, 'src/webhooks/index.ts'));
  for (const file of files) expect(readFileSync(file, 'utf8')).not.toMatch(/_events|\.prefixed/);
});
