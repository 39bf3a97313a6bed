/**
 * The packed package installed as a user installs it, made once per dist/ build and shared by every
 * test over the tarball (tarball, consumers, webpack and test-runners tests):
 * `npm pack` plus `npm install` cost most of such a file's time, and what they produce depends only
 * on what is built. The install is cached under the OS temp folder, keyed by a hash of what `npm
 * pack` takes; each test file gets its own copy to write into, which it removes when done. The copy's
 * telephony-sdk is its own (tests rewrite its package.json); its dependencies (ky, zod,
 * eventemitter3: zod alone is 870 files) are links into the cache, which a test may remove from its
 * copy's node_modules but never writes through.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ensureBuilt, packTarball, projectWithTarball, repoRoot } from '../../scripts/lib/tarball.js';

const CACHE = join(tmpdir(), 'telephony-sdk-packed');
/** A cached install unused for this long is removed (each rebuild of dist/ makes a new one). */
const UNUSED_MS = 24 * 60 * 60 * 1000;
/** How long a test file waits for another one packing the same build (a cold pack on a loaded machine: 20–60 s). */
const WAIT_MS = 300_000;

/** Every file under `dir`, relative, sorted (so the hash does not depend on the listing's order). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(join(dir, file)).isFile())
    .sort();
}

/** A hash of what `npm pack` puts in the tarball: the manifest, README, CHANGELOG, LICENSE and dist/. */
function buildKey(): string {
  const hash = createHash('sha256');
  const files = [
    ...['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'],
    ...filesUnder(join(repoRoot, 'dist')).map((file) => join('dist', file)),
  ];
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(repoRoot, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

function removeUnused(except: string): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path !== except && Date.now() - statSync(path).mtimeMs > UNUSED_MS)
      rmSync(path, { recursive: true, force: true });
  }
}

/** True while the process that took `lock` (its pid inside) runs. */
function lockHeld(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return existsSync(lock); // taken a moment ago (pid not yet written), or released
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Packs and installs into `target`, unless another process is doing it: then waits for its result. */
async function install(target: string): Promise<void> {
  const lock = `${target}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(target)) {
    try {
      mkdirSync(lock);
    } catch {
      if (!lockHeld(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`${lock} held for ${WAIT_MS / 1000} s; remove it if stale`);
      else await delay(250);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const tarball = packTarball();
      const project = projectWithTarball(tarball);
      rmSync(dirname(tarball), { recursive: true, force: true });
      // Same file system (both under tmpdir), so the finished install appears at once, whole.
      renameSync(project, target);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * A fresh temp project (`"type": "module"`) with the packed package and its dependencies
 * installed, nothing else: a copy of the cached install of the current dist/ (built first if
 * missing). The caller removes it.
 */
export async function packedProject(prefix = 'telephony-sdk-consumer-'): Promise<string> {
  ensureBuilt();
  mkdirSync(CACHE, { recursive: true });
  const cached = join(CACHE, buildKey());
  await install(cached);
  const now = new Date();
  utimesSync(cached, now, now);
  removeUnused(cached);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const modules = join(cached, 'node_modules');
  const linked = readdirSync(modules).filter((name) => name !== 'telephony-sdk' && !name.startsWith('.'));
  // verbatimSymlinks: node_modules/.bin's relative links then point into the copy, not the cache.
  cpSync(cached, dir, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !linked.some((name) => source === join(modules, name)),
  });
  for (const name of linked) symlinkSync(join(modules, name), join(dir, 'node_modules', name));
  return dir;
}
