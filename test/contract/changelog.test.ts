/**
 * CHANGELOG.md is release notes (Keep a Changelog): the package's version has a section, and every
 * section groups its lines under the standard headings only, none of them empty.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const HEADINGS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

/** `## [x]` sections, each with its `### Heading` groups and their bullet counts. */
function sections(text: string): Map<string, Map<string, number>> {
  const result = new Map<string, Map<string, number>>();
  let groups: Map<string, number> | undefined;
  let heading = '';
  for (const line of text.split('\n')) {
    const release = /^## \[([^\]]+)\]/.exec(line);
    if (release) {
      groups = new Map();
      result.set(release[1] as string, groups);
    } else if (line.startsWith('### ') && groups) {
      heading = line.slice(4).trim();
      groups.set(heading, 0);
    } else if (line.startsWith('- ') && groups?.has(heading)) {
      groups.set(heading, (groups.get(heading) ?? 0) + 1);
    }
  }
  return result;
}

describe('CHANGELOG.md', () => {
  const releases = sections(changelog);

  it("has a section for package.json's version", () => {
    expect([...releases.keys()]).toContain(version);
  });

  it('groups every section under Keep a Changelog headings only, each with at least one line', () => {
    for (const [release, groups] of releases) {
      for (const [heading, lines] of groups) {
        expect(HEADINGS, `${release}: ### ${heading}`).toContain(heading);
        expect(lines, `${release}: ### ${heading} has no line`).toBeGreaterThan(0);
      }
    }
    expect([...(releases.get(version)?.keys() ?? [])]).toEqual(
      expect.arrayContaining(['Added', 'Changed', 'Fixed']),
    );
  });
});
