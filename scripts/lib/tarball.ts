import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json and dist/ live). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' };

/** Builds dist/ with tsup when it is missing (CI builds before testing, so this is for local runs). */
export function ensureBuilt(): void {
  if (existsSync(join(repoRoot, 'dist/index.js'))) return;
  execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'ignore', env: npmEnv });
}

/**
 * `npm pack` of the repository (or of `packageDir`), dist/ as it is, into a fresh temp dir; returns
 * the tarball's path. Build first ({@link ensureBuilt}): `--ignore-scripts` skips the `prepack`
 * build, which would rebuild dist/ on every run.
 */
export function packTarball(packageDir = repoRoot): string {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-sdk-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: packageDir,
    encoding: 'utf8',
    env: npmEnv,
  });
  const [info] = JSON.parse(out) as { filename: string }[];
  if (!info) throw new Error(`npm pack printed no file: ${out}`);
  return join(dir, info.filename);
}

/**
 * A temp project (`"type": "module"`) with the tarball installed (and any `others` beside it, e.g.
 * a peer SDK packed from node_modules). Tries the npm cache first (offline: ky, zod and
 * eventemitter3 are already cached on a machine that ran `npm ci`) and falls back to the registry.
 */
export function projectWithTarball(tarball: string, ...others: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-sdk-consumer-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  const install = (extra: string[]) =>
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', ...extra, tarball, ...others],
      {
        cwd: dir,
        stdio: 'pipe',
        env: npmEnv,
      },
    );
  try {
    install(['--offline']);
  } catch {
    install([]);
  }
  return dir;
}

type ExportsTree = string | null | ExportsTree[] | { [key: string]: ExportsTree };

/** `exports` (or any part of it) without the conditions for which `drop(condition, target)` holds. */
function exportsWithout(
  tree: ExportsTree,
  drop: (condition: string, target: ExportsTree) => boolean,
): ExportsTree {
  if (tree === null || typeof tree === 'string') return tree;
  if (Array.isArray(tree)) return tree.map((item) => exportsWithout(item, drop));
  const kept: { [key: string]: ExportsTree } = {};
  for (const [key, value] of Object.entries(tree)) {
    if (!drop(key, value)) kept[key] = exportsWithout(value, drop);
  }
  return kept;
}

/** Rewrites `<packageDir>/package.json`'s `exports` through {@link exportsWithout}. */
export function rewriteExports(
  packageDir: string,
  drop: (condition: string, target: ExportsTree) => boolean,
): void {
  const file = join(packageDir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { exports: ExportsTree };
  manifest.exports = exportsWithout(manifest.exports, drop);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The package as {@link packTarball} packs it, but with `dist` (another build, e.g. an earlier
 * commit's dist/) in place of dist/. Conditions of `exports` whose file that build does not have
 * are dropped, so the package resolves as it did when that build was made.
 */
export function packTarballWithDist(dist: string): string {
  const tarball = packTarball();
  const dir = mkdtempSync(join(tmpdir(), 'telephony-sdk-other-dist-'));
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  rmSync(dirname(tarball), { recursive: true, force: true });
  const packageDir = join(dir, 'package');
  rmSync(join(packageDir, 'dist'), { recursive: true, force: true });
  cpSync(dist, join(packageDir, 'dist'), { recursive: true });
  rewriteExports(
    packageDir,
    (_condition, target) => typeof target === 'string' && !existsSync(join(packageDir, target)),
  );
  const packed = packTarball(packageDir);
  rmSync(dir, { recursive: true, force: true });
  return packed;
}
