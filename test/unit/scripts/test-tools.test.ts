import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingTools, plan } from '../../../scripts/lib/test-tools.js';

/** A PATH holding executables named `names` (and nothing else). */
function pathWith(...names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'test-tools-'));
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe('the tools the tests need: redis-server and Chromium', () => {
  it('finds what is on PATH and names what is not', () => {
    expect(missingTools({ PATH: pathWith('redis-server', 'chromium') })).toEqual([]);
    expect(missingTools({ PATH: pathWith('chromium') }).map((tool) => tool.name)).toEqual(['redis-server']);
    expect(missingTools({ PATH: pathWith('redis-server') }).map((tool) => tool.name)).toEqual(['Chromium']);
    expect(missingTools({ PATH: pathWith() }).map((tool) => tool.aptPackage)).toEqual([
      'redis-server',
      'chromium',
    ]);
  });

  it('installs with apt-get only as root with apt-get, and does nothing when all are there', () => {
    const missing = missingTools({ PATH: pathWith() });
    expect(plan([], false, false)).toEqual({ action: 'none' });
    expect(plan(missing, true, true)).toEqual({ action: 'install', tools: missing });
  });

  it('otherwise stops first with the one command to run', () => {
    const missing = missingTools({ PATH: pathWith() });
    const notRoot = plan(missing, false, true);
    expect(notRoot).toEqual({
      action: 'fail',
      message: expect.stringContaining('\n  sudo apt-get install -y redis-server chromium\n'),
    });
    const redisOnly = plan(missingTools({ PATH: pathWith('chromium') }), false, true);
    expect(redisOnly).toEqual({
      action: 'fail',
      message: expect.stringMatching(
        /^redis-server is not installed.*\n {2}sudo apt-get install -y redis-server\n/,
      ),
    });
    expect(plan(missing, true, false)).toEqual({
      action: 'fail',
      message: expect.stringContaining('brew install redis && brew install --cask chromium'),
    });
  });
});
