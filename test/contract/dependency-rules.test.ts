import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cruise, type IConfiguration, type ICruiseOptions } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const fixtures = join(root, 'test/fixtures/layering');
const config: IConfiguration = (await import(join(root, '.dependency-cruiser.cjs'))).default;
// The fixtures have no tsconfig of their own, and the rules need none.
const options: ICruiseOptions = { ...config.options };
delete options.tsConfig;

async function violations(baseDir: string): Promise<string[]> {
  const result = await cruise(
    ['src'],
    {
      ...options,
      ruleSet: { forbidden: config.forbidden ?? [] },
      baseDir,
      validate: true,
    },
    { conditionNames: ['import', 'node', 'default', 'types'], exportsFields: ['exports'] },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser gave text, not a result');
  return result.output.summary.violations.map(({ rule, from }) => `${rule.name} ${from}`);
}

/** `<rule> <file>` for every fixture whose first line names the rule it breaks. */
function expectedViolations(): string[] {
  const dir = join(fixtures, 'src');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const rule = /^\/\/ ([a-z-]+)$/.exec(readFileSync(join(dir, file), 'utf8').split('\n')[0] ?? '')?.[1];
      return rule === undefined ? [] : [`${rule} ${relative(fixtures, join(dir, file))}`];
    });
}

describe('the dependency rules of src/ (npm run lint)', () => {
  it('catch each wrong import of the fixtures, and nothing else', async () => {
    const expected = expectedViolations();
    expect(expected).toHaveLength(config.forbidden?.length ?? 0);
    expect(new Set(await violations(fixtures))).toEqual(new Set(expected));
  });

  it('hold for src/ as it is', async () => {
    expect(await violations(root)).toEqual([]);
  });
});
