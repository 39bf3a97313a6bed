/**
 * scripts/lib/source-maps.ts, which trims the Node build's maps to the SDK's own sources: the
 * mappings decode and encode back unchanged, and a dropped source's segments end the span
 * before them instead of extending it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { keepSources } from '../../scripts/lib/source-maps.js';
import { ensureBuilt, repoRoot } from '../../scripts/lib/tarball.js';

beforeAll(() => ensureBuilt(), 120_000);

it('keeps every mapping of a real map when every source is kept', () => {
  const map = JSON.parse(readFileSync(join(repoRoot, 'dist/index.js.map'), 'utf8'));
  const kept = keepSources(map, () => true);
  expect(kept.mappings).toBe(map.mappings);
  expect(kept.sources).toEqual(map.sources);
  expect(kept.names).toEqual(map.names);
  expect(kept).not.toHaveProperty('sourcesContent');
});

it("drops a source's segments, renumbers the rest, and ends the span the dropped code would extend", () => {
  const map = {
    version: 3,
    sources: ['src/a.ts', 'node_modules/z/index.js', 'src/b.ts'],
    sourcesContent: ['a', 'z', 'b'],
    names: ['unused', 'kept'],
    // Line 1: col 0 → a.ts 1:1; col 10 → z 1:6; col 20 → b.ts 2:6, name 'kept'.
    // Line 2: col 0 → z 1:1; col 4 → a.ts 3:1.
    mappings: 'AAAA,UCAK,UCCAC;ADDL,IDEA',
  };
  const kept = keepSources(map, (source) => !source.startsWith('node_modules/'));
  expect(kept.sources).toEqual(['src/a.ts', 'src/b.ts']);
  expect(kept.names).toEqual(['unused', 'kept']);
  expect(kept).not.toHaveProperty('sourcesContent');
  // Line 1: a.ts at 0, unmapped from 10, b.ts 2:6 (name 1) at 20. Line 2: a.ts 3:1 at 4 only.
  expect(kept.mappings).toBe('AAAA,U,UCCKC;IDCL');
});
