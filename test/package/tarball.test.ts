/**
 * The packed tarball, installed into temporary projects, as users get it: each entry through
 * ESM `import`, CJS `require`, and the TypeScript compiler (nodenext and bundler resolution);
 * `telephony-sdk/webhooks` also without ky and zod installed; and the `telephony-sandbox` bin.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, packTarball, projectWithTarball, repoRoot } from '../../scripts/lib/tarball.js';
import { cjsProbe, consumerTsconfig, esmProbe, type ProbeResult, typescriptConsumer } from './probes.js';

const ENTRIES = ['telephony-sdk', 'telephony-sdk/webhooks', 'telephony-sdk/testing', 'telephony-sdk/redis'];

let project = '';
let webhooksOnly = '';
const made: string[] = [];

function run(cwd: string, file: string, contents: string): ProbeResult {
  writeFileSync(join(cwd, file), contents);
  const out = execFileSync(process.execPath, [file], { cwd, encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ProbeResult;
}

/** tsc's diagnostics ('' when the project typechecks). */
function compilerErrors(tsc: string, config: string): string {
  try {
    execFileSync(process.execPath, [tsc, '-p', config], { cwd: project, encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout || error);
  }
}

beforeAll(() => {
  ensureBuilt();
  const tarball = packTarball();
  made.push(join(tarball, '..'));
  project = projectWithTarball(tarball);
  made.push(project);
  // The edge-receiver case: the same install, minus the HTTP client's dependencies.
  webhooksOnly = mkdtempSync(join(tmpdir(), 'telephony-sdk-webhooks-only-'));
  made.push(webhooksOnly);
  cpSync(project, webhooksOnly, { recursive: true });
  rmSync(join(webhooksOnly, 'node_modules/ky'), { recursive: true, force: true });
  rmSync(join(webhooksOnly, 'node_modules/zod'), { recursive: true, force: true });
}, 120_000);

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['ESM import', 'probe.mjs', esmProbe],
  ['CJS require', 'probe.cjs', cjsProbe],
])('packed tarball, %s', (_format, file, probe) => {
  let result: ProbeResult;
  beforeAll(() => {
    result = run(project, file, probe(ENTRIES));
  });

  it('loads every entry', () => {
    for (const entry of ENTRIES) expect(result.exports[entry], entry).toBeInstanceOf(Array);
    expect(result.exports['telephony-sdk']).toEqual(
      expect.arrayContaining(['TelephonyError', 'APIError', 'ValidationError', 'APIConnectionError']),
    );
  });

  it('exports the client and pagination of API.md', () => {
    expect(result.exports['telephony-sdk']).toEqual(expect.arrayContaining(['TelephonyClient']));
  });

  it('exports the webhook API from both entries', () => {
    const names = ['verifyWebhook', 'signWebhook', 'WebhookReceiver', 'WebhookVerificationError'];
    expect(result.exports['telephony-sdk/webhooks']).toEqual(expect.arrayContaining(names));
    expect(result.exports['telephony-sdk']).toEqual(expect.arrayContaining(names));
  });

  it('loads telephony-sdk/redis without its optional peers (redis, ioredis) installed', () => {
    expect(result.exports['telephony-sdk/redis']).toEqual(['redisDedupStore', 'redisState']);
    expect(existsSync(join(project, 'node_modules/redis'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/ioredis'))).toBe(false);
  });

  it('an error from telephony-sdk/webhooks is a TelephonyError of telephony-sdk', () => {
    expect(result.webhookError).toEqual({
      name: 'WebhookVerificationError',
      instanceOfMainTelephonyError: true,
      reason: 'missing_header',
    });
  });

  it("keeps every exported class's name (error.name, stack traces and logs read it)", () => {
    const classes = result.classNames;
    expect(Object.keys(classes['telephony-sdk'] ?? {})).toEqual(
      expect.arrayContaining([
        'TelephonyError',
        'NotFoundError',
        'TelephonyClient',
        'WebhookReceiver',
        'Page',
      ]),
    );
    expect(Object.keys(classes['telephony-sdk/webhooks'] ?? {})).toEqual(
      expect.arrayContaining(['TelephonyError', 'WebhookReceiver', 'WebhookVerificationError']),
    );
    for (const entry of ENTRIES) {
      const names = classes[entry] ?? {};
      expect(names, entry).toEqual(Object.fromEntries(Object.keys(names).map((key) => [key, key])));
    }
  });

  it('shares one TelephonyError class between the entries', () => {
    expect(result.sameTelephonyError).not.toBe(false);
  });

  it('loads telephony-sdk/webhooks without ky or zod installed', () => {
    const alone = run(webhooksOnly, file, probe(['telephony-sdk/webhooks']));
    expect(alone.exports['telephony-sdk/webhooks']).toBeInstanceOf(Array);
    expect(alone.webhookError).toMatchObject({
      name: 'WebhookVerificationError',
      reason: 'missing_header',
    });
  });
});

describe('packed tarball, TypeScript', () => {
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  const typeRoots = join(repoRoot, 'node_modules/@types');

  it.each([
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ] as const)('typechecks every entry with module %s, moduleResolution %s', (module, resolution) => {
    writeFileSync(join(project, 'consumer.ts'), typescriptConsumer);
    writeFileSync(join(project, 'consumer.cts'), typescriptConsumer);
    const config = `tsconfig.${resolution}.json`;
    writeFileSync(join(project, config), consumerTsconfig(module, resolution, typeRoots));
    expect(compilerErrors(tsc, config)).toBe('');
  });

  it.each([
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ] as const)(
    'typechecks every entry without lib DOM (lib ES2022, types node), module %s',
    (module, resolution) => {
      // DOM-only types (RequestInfo, HeadersInit, BodyInit…) in a declaration fail here.
      writeFileSync(join(project, 'consumer.ts'), typescriptConsumer);
      writeFileSync(join(project, 'consumer.cts'), typescriptConsumer);
      const config = `tsconfig.${resolution}.no-dom.json`;
      writeFileSync(join(project, config), consumerTsconfig(module, resolution, typeRoots, ['es2022']));
      expect(compilerErrors(tsc, config)).toBe('');
    },
  );
});

describe('packed tarball, contents', () => {
  it('ships docs/*.md and their images, so every relative link of README.md and docs/*.md resolves; not the generated docs/api', () => {
    const pkg = join(project, 'node_modules/telephony-sdk');
    const docs = readdirSync(join(pkg, 'docs'));
    expect(docs).toEqual(expect.arrayContaining(['core.md', 'resources.md', 'sandbox.md', 'webhooks.md']));
    // images/: the console screenshots docs/sandbox.md shows.
    expect(docs.filter((file) => !file.endsWith('.md') && file !== 'images')).toEqual([]);
    expect(readdirSync(join(pkg, 'docs/images')).filter((file) => !file.endsWith('.png'))).toEqual([]);
    const links: string[] = [];
    for (const file of [
      'README.md',
      ...docs.filter((doc) => doc.endsWith('.md')).map((doc) => `docs/${doc}`),
    ]) {
      const text = readFileSync(join(pkg, file), 'utf8');
      // Relative links only: not `#anchor`, not `https:` or any other scheme.
      for (const [, target = ''] of text.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
        if (/^[a-z][\w+.-]*:/i.test(target)) continue;
        links.push(`${file} → ${target}`);
        expect(existsSync(join(pkg, dirname(file), target)), `${file} → ${target}`).toBe(true);
      }
    }
    expect(links).toContain('README.md → docs/webhooks.md');
  });

  it('ships the MIT LICENSE that package.json names', () => {
    const pkg = join(project, 'node_modules/telephony-sdk');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { license?: string };
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
  });

  it('names no repository, homepage or bugs address while the project has no public one', () => {
    const pkg = join(project, 'node_modules/telephony-sdk');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['repository', 'homepage', 'bugs']) expect(manifest).not.toHaveProperty(field);
  });

  it('ships source maps that name no path of the build machine (every source relative to its map)', () => {
    const dist = join(project, 'node_modules/telephony-sdk/dist');
    const maps = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.map'),
    );
    expect(maps.length).toBeGreaterThan(10);
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(dist, file), 'utf8')) as { file?: string; sources: string[] };
      const paths = [map.file ?? '', ...map.sources];
      expect(
        paths.filter((path) => path.startsWith('/') || /^[a-z]:/i.test(path)),
        file,
      ).toEqual([]);
      expect(readFileSync(join(dist, file), 'utf8'), file).not.toContain(repoRoot);
    }
  });
});

describe('packed tarball, the telephony-sandbox bin', () => {
  it('is installed as an executable that runs on its own shebang', () => {
    // Run directly, not through `node`: a missing shebang or exec bit fails here as it would for users.
    const help = execFileSync(join(project, 'node_modules/.bin/telephony-sandbox'), ['--help'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(help).toContain('Usage: telephony-sandbox [--port <number>]');
  });

  it('serves the console page, its script and its style (built into the bundle, nothing beside it)', async () => {
    const child = spawn(join(project, 'node_modules/.bin/telephony-sandbox'), ['--port', '0'], {
      cwd: project,
    });
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8');
      for await (const chunk of child.stdout) {
        stdout += chunk;
        if (stdout.includes('Ctrl+C to stop.')) break;
      }
      const consoleUrl = /console \(open it\): +(\S+)/.exec(stdout)?.[1] ?? '';
      expect(consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_console\/$/);
      const files = await Promise.all(
        ['', 'console.js', 'console.css'].map(async (file) => (await fetch(consoleUrl + file)).text()),
      );
      const sources = ['page.html', 'console.js', 'console.css'].map((file) =>
        readFileSync(join(repoRoot, 'src/testing/console', file), 'utf8'),
      );
      expect(files).toEqual(sources);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }, 30_000);
});
