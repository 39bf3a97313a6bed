/**
 * globalSetup of the build projects (vitest.config.ts): builds dist/ when it is missing or older than
 * a source or the build's config, so `npm test` on a fresh clone, or after an edit, tests what
 * would ship now.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './builds.js';

/** The newest modification time of `path` and, for a folder, of everything in it. */
function newest(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export default function setup(): void {
  const built = statSync(join(repoRoot, 'dist/index.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const inputs = ['src', 'scripts/lib', 'tsup.config.ts', 'package.json'].map((path) =>
    newest(join(repoRoot, path)),
  );
  if (built >= Math.max(...inputs)) return;
  execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
}
