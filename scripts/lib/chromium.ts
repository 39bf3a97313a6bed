/**
 * Where the tests and scripts that drive a real browser (playwright-core, which downloads none)
 * find Chromium: `CHROMIUM_PATH` when set, else the first of the usual names on PATH (Debian's
 * `chromium`, Ubuntu's `chromium-browser`, Google Chrome's), else the macOS application bundles.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const MAC_APPS = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to launch, or undefined when there is none (see {@link requireChromium}). */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string | undefined {
  if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of NAMES) for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  return platform === 'darwin' ? MAC_APPS.find(executable) : undefined;
}

/** The Chromium to launch; throws how to get one when there is none. */
export function requireChromium(env: NodeJS.ProcessEnv = process.env): string {
  const found = findChromium(env);
  if (found) return found;
  throw new Error(
    env.CHROMIUM_PATH
      ? `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable`
      : `no Chromium on PATH (${NAMES.join(', ')}): install one (Debian: sudo apt-get install -y chromium; macOS: brew install --cask chromium) or set CHROMIUM_PATH`,
  );
}
