/**
 * scripts/lib/source-maps.ts, which trims the package's maps to the SDK's own sources, by line: the
 * mappings decode and encode back unchanged, a dropped source's segments end the span before them
 * instead of extending it, and a run of segments on one source line keeps its first. And
 * scripts/lib/source-text.ts, which blanks the comments of the sources the maps name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { byLine, keepSources } from '../../scripts/lib/source-maps.js';
import { withoutComments } from '../../scripts/lib/source-text.js';
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

it('keeps, per generated line, the first segment of each run on one source line, and every named one', () => {
  const map = {
    version: 3,
    sources: ['src/a.ts', 'src/b.ts'],
    names: ['n'],
    // Line 1: a.ts 1:0 at 0, a.ts 1:4 at 3, a.ts 1:8 at 6 (name 0), a.ts 2:0 at 9, b.ts 2:0 at 12,
    // unmapped at 15, a.ts 2:2 at 18. Line 2: a.ts 2:4 at 0, a.ts 2:6 at 2.
    mappings: 'AAAA,GAAI,GAAIA,GACR,GCAA,G,GDAE;AAAE,EAAE',
  };
  const kept = byLine(map);
  expect(kept.sources).toEqual(map.sources);
  // Line 1 loses a.ts 1:4 only; line 2 loses a.ts 2:6 (its first segment always stays).
  expect(kept.mappings).toBe('AAAA,MAAQA,GACR,GCAA,G,GDAE;AAAE');
});

it('blanks comments and only comments, keeping every line and column of code', () => {
  const source = [
    '/** Doc. */',
    "const url = 'http://x/*y*/'; // trailing",
    'const re = /\\/\\/ not a comment/; /* inline */ const t = `// $\u007B1 /* in */} kept`;',
    '',
  ].join('\n');
  expect(withoutComments(source, 'a.ts').split('\n')).toEqual([
    '',
    "const url = 'http://x/*y*/';",
    'const re = /\\/\\/ not a comment/;              const t = `// $\u007B1         } kept`;',
    '',
  ]);
});
