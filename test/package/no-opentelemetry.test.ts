/**
 * API.md, Tracing: the SDK imports no OpenTelemetry code at run time; `@opentelemetry/api` is an
 * optional peer dependency for its types only. So no built JavaScript file names it at all (an
 * `import`, a `require`, an `import()`), while the type declarations do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from '../../scripts/lib/tarball.js';

beforeAll(() => ensureBuilt(), 120_000);

const built = (pattern: RegExp) =>
  (readdirSync(join(repoRoot, 'dist'), { recursive: true }) as string[])
    .filter((name) => pattern.test(name))
    .map((name) => ({ name, code: readFileSync(join(repoRoot, 'dist', name), 'utf8') }));

describe('no OpenTelemetry code at run time', () => {
  it('no built .js or .cjs file (dist/ and dist/node/) mentions @opentelemetry', () => {
    const files = built(/\.(?:c|m)?js$/);
    expect(files.map((file) => file.name)).toEqual(
      expect.arrayContaining(['index.js', 'index.cjs', 'webhooks.js', 'webhooks.cjs', 'node/index.js']),
    );
    expect(files.filter((file) => file.code.includes('@opentelemetry')).map((file) => file.name)).toEqual([]);
  });

  it('nor does any type declaration: a TypeScript app without @opentelemetry/api installed compiles', () => {
    const declarations = built(/\.d\.(?:c|m)?ts$/);
    expect(declarations.length).toBeGreaterThan(0);
    expect(
      declarations
        .filter((file) => /(?:from|import\(|require\()\s*['"]@opentelemetry/.test(file.code))
        .map((file) => file.name),
    ).toEqual([]);
  });
});
