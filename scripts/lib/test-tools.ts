/**
 * What the test suite runs for real and npm cannot install: `redis-server` (the Redis tests start
 * their own) and Chromium (the console tests drive it). {@link plan} decides, from what is found,
 * whether to install them with apt-get (root on Debian/Ubuntu, as CI runs) or to stop before the
 * tests with the one command that installs them.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { findChromium } from './chromium.js';

/** A tool the tests need: its name and the apt package (and apt flags) that provides it. */
export interface Tool {
  readonly name: string;
  readonly aptPackage: string;
  /** Chromium needs its recommended fonts to render the console; redis-server needs nothing more. */
  readonly aptFlags: readonly string[];
}

const REDIS: Tool = {
  name: 'redis-server',
  aptPackage: 'redis-server',
  aptFlags: ['--no-install-recommends'],
};
const CHROMIUM: Tool = { name: 'Chromium', aptPackage: 'chromium', aptFlags: [] };

/** What to do: nothing, an apt-get install per tool, or stop with `message`. */
export type Plan =
  | { readonly action: 'none' }
  | { readonly action: 'install'; readonly tools: readonly Tool[] }
  | { readonly action: 'fail'; readonly message: string };

/** Whether `command` is an executable on PATH. */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The tools missing on this machine. */
export function missingTools(env: NodeJS.ProcessEnv = process.env): Tool[] {
  return [...(onPath('redis-server', env) ? [] : [REDIS]), ...(findChromium(env) ? [] : [CHROMIUM])];
}

/** From what is missing, whether this process runs as root and whether apt-get is there: what to do. */
export function plan(missing: readonly Tool[], root: boolean, apt: boolean): Plan {
  if (missing.length === 0) return { action: 'none' };
  if (root && apt) return { action: 'install', tools: missing };
  const names = missing.map((tool) => tool.name).join(' and ');
  const what = `${names} ${missing.length > 1 ? 'are' : 'is'} not installed; the tests run ${missing.length > 1 ? 'them' : 'it'} for real (no mock).`;
  if (apt)
    return {
      action: 'fail',
      message: `${what} Run:\n  sudo apt-get install -y ${missing.map((tool) => tool.aptPackage).join(' ')}\nthen npm test again.`,
    };
  const brew = missing.map((tool) =>
    tool === REDIS ? 'brew install redis' : 'brew install --cask chromium',
  );
  return {
    action: 'fail',
    message: `${what} Install ${missing.length > 1 ? 'them' : 'it'} (macOS: ${brew.join(' && ')}; Chromium may also be named by CHROMIUM_PATH), then npm test again.`,
  };
}
