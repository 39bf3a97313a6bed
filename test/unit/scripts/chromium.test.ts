import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findChromium, requireChromium } from '../../../scripts/lib/chromium.js';
import { repoRoot } from '../../../scripts/lib/tarball.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding an executable (or not) file per name. */
function bin(files: Record<string, boolean>): string {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-sdk-chromium-'));
  made.push(dir);
  for (const [name, exec] of Object.entries(files)) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), exec ? 0o755 : 0o644);
  }
  return dir;
}

describe('findChromium: CHROMIUM_PATH, else PATH, not only the one place Debian installs it', () => {
  it('takes the first usual name found on PATH, in PATH order per name', () => {
    const empty = bin({ chromium: false });
    const chrome = bin({ 'google-chrome': true });
    const ubuntu = bin({ 'chromium-browser': true });
    const PATH = [empty, chrome, ubuntu].join(':');
    expect(findChromium({ PATH }, 'linux')).toBe(join(ubuntu, 'chromium-browser'));
    expect(findChromium({ PATH: [empty, chrome].join(':') }, 'linux')).toBe(join(chrome, 'google-chrome'));
  });

  it('CHROMIUM_PATH wins over PATH; one that is not executable finds nothing and is named', () => {
    const own = bin({ 'my-chromium': true, broken: false });
    const onPath = bin({ chromium: true });
    expect(findChromium({ CHROMIUM_PATH: join(own, 'my-chromium'), PATH: onPath }, 'linux')).toBe(
      join(own, 'my-chromium'),
    );
    const env = { CHROMIUM_PATH: join(own, 'broken'), PATH: onPath };
    expect(findChromium(env, 'linux')).toBeUndefined();
    expect(() => requireChromium(env)).toThrow(`CHROMIUM_PATH=${join(own, 'broken')} is not an executable`);
  });

  it('none on PATH: undefined, and requireChromium says how to get one', () => {
    const PATH = bin({});
    expect(findChromium({ PATH }, 'linux')).toBeUndefined();
    expect(() => requireChromium({ PATH })).toThrow(/no Chromium on PATH .*set CHROMIUM_PATH/);
  });

  it('no test, script or CI step names a fixed Chromium location', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (readFileSync(join(repoRoot, path), 'utf8').includes(`/usr/bin/${'chromium'}`))
          offenders.push(path);
      }
    };
    for (const dir of ['scripts', 'test', '.ci', 'bench']) walk(dir);
    expect(offenders).toEqual([]);
  });
});
