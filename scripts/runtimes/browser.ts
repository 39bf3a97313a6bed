/**
 * The browser leg of the runtime matrix: Chromium (headless, via playwright-core; found by
 * scripts/lib/chromium.ts) loads
 * a page from 127.0.0.1 that imports an esbuild ESM bundle of the built package and runs the
 * smoke script against the service on another 127.0.0.1 origin (so CORS is exercised).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { requireChromium } from '../lib/chromium.js';
import type { SmokeConfig, SmokeResult } from './types.js';

async function bundleSdk(dist: string): Promise<string> {
  const result = await build({
    stdin: {
      contents: `export * as sdk from '${dist}/index.js'; export * as webhooks from '${dist}/webhooks.js';`,
      resolveDir: dist,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export async function runInBrowser(config: SmokeConfig, smokeFile: string): Promise<SmokeResult[]> {
  const files: Record<string, [string, string]> = {
    '/sdk.js': ['text/javascript', await bundleSdk(config.dist)],
    '/smoke.mjs': ['text/javascript', readFileSync(smokeFile, 'utf8')],
    '/': [
      'text/html',
      `<!doctype html><meta charset="utf-8"><title>smoke</title><script type="module">
import { sdk, webhooks } from '/sdk.js';
import { runSmoke } from '/smoke.mjs';
const config = ${JSON.stringify({ baseUrl: config.baseUrl, credentials: config.credentials })};
window.__results = await runSmoke({ ...config, sdk, webhooks, browser: true })
  .catch((error) => [{ name: 'page', status: 'fail', detail: String(error) }]);
</script>`,
    ],
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? '/'];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const profile = mkdtempSync(join(tmpdir(), 'telephony-sdk-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: requireChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => '__results' in window, undefined, { timeout: 60_000 });
    const results = (await page.evaluate(
      () => (window as unknown as { __results: unknown }).__results,
    )) as SmokeResult[];
    const agent = await page.evaluate(() => navigator.userAgent);
    results.unshift({
      name: 'runtime',
      status: 'pass',
      detail: agent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? agent,
    });
    for (const message of consoleErrors)
      results.push({ name: 'page error', status: 'fail', detail: message });
    return results;
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
