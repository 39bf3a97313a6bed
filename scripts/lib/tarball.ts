import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * A temp project (`"type": "module"`) with the tarball installed. Tries the npm cache first
 * (offline: ky, zod and eventemitter3 are already cached on a machine that ran `npm ci`) and
 * falls back to the registry.
 */
export function projectWithTarball(tarball: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-sdk-consumer-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  const install = (extra: string[]) =>
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', ...extra, tarball], {
      cwd: dir,
      stdio: 'pipe',
      env: npmEnv,
    });
  try {
    install(['--offline']);
  } catch {
    install([]);
  }
  return dir;
}
