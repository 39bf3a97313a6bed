/**
 * The packed tarball, installed into temporary projects, as users get it: each entry through
 * ESM `import`, CJS `require`, and the TypeScript compiler (nodenext and bundler resolution);
 * `telephony-sdk/webhooks` also without ky and zod installed; and the `telephony-sandbox` bin.
 * Node resolves the `node` condition (dist/node/, dependencies bundled, for the client and the
 * receiver; testing and redis load from dist/ everywhere); the same checks run on a
 * copy of the install whose package.json has no `node` condition, so the build that bundlers,
 * browsers and workers get (dist/) is loaded too. Bundlers resolve to dist/ (esbuild, below).
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, rewriteExports } from '../../scripts/lib/tarball.js';
import { packedProject } from './packed-project.js';
import { cjsProbe, consumerTsconfig, esmProbe, type ProbeResult, typescriptConsumer } from './probes.js';

const ENTRIES = ['telephony-sdk', 'telephony-sdk/webhooks', 'telephony-sdk/testing', 'telephony-sdk/redis'];

let project = '';
/** The same install, its package.json without the `node` condition: what Node loads is dist/. */
let defaultProject = '';
/** Per project above: the same install minus the HTTP client's dependencies (the edge-receiver case). */
const webhooksOnly = new Map<string, string>();
const made: string[] = [];

function copyProject(from: string, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  cpSync(from, dir, { recursive: true });
  return dir;
}

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

beforeAll(async () => {
  project = await packedProject();
  made.push(project);
  defaultProject = copyProject(project, 'telephony-sdk-default-build-');
  rewriteExports(join(defaultProject, 'node_modules/telephony-sdk'), (condition) => condition === 'node');
  for (const from of [project, defaultProject]) {
    const dir = copyProject(from, 'telephony-sdk-webhooks-only-');
    rmSync(join(dir, 'node_modules/ky'), { recursive: true, force: true });
    rmSync(join(dir, 'node_modules/zod'), { recursive: true, force: true });
    webhooksOnly.set(from, dir);
  }
}, 300_000);

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * Where Node finds each entry through `import`: the client and the receiver in the Node build;
 * redis, which imports no dependency, in dist/ (the one ESM build of it the package ships); testing
 * in dist/testing.cjs (the sandbox ships once, as CommonJS). Through `require`, every entry is in
 * dist/*.cjs: the one CJS build bundles the dependencies.
 */
const NODE_BUILD_FILES = ['dist/node/index.js', 'dist/node/webhooks.js', 'dist/testing.cjs', 'dist/redis.js'];
const DIST_FILES = ['dist/index.js', 'dist/webhooks.js', 'dist/testing.cjs', 'dist/redis.js'];
const CJS_FILES = ['dist/index.cjs', 'dist/webhooks.cjs', 'dist/testing.cjs', 'dist/redis.cjs'];

const BUILDS = [
  ['the Node build', () => project, NODE_BUILD_FILES],
  ['without the node condition', () => defaultProject, DIST_FILES],
] as const;

describe.each(BUILDS)('packed tarball, %s: what Node resolves', (_build, cwd, importFiles) => {
  it.each([
    ['resolve.mjs', 'import.meta.resolve(specifier)', importFiles],
    ['resolve.cjs', 'require.resolve(specifier)', CJS_FILES],
  ])('%s: every entry from %j', (file, resolve, files) => {
    const script = `for (const specifier of ${JSON.stringify(ENTRIES)}) console.log(${resolve});`;
    writeFileSync(join(cwd(), file), script);
    const lines = execFileSync(process.execPath, [file], { cwd: cwd(), encoding: 'utf8' }).trim().split('\n');
    expect(lines.map((line) => line.replace(/^file:\/\//, ''))).toEqual(
      files.map((path) => join(cwd(), 'node_modules/telephony-sdk', path)),
    );
  });
});

describe.each(
  BUILDS.flatMap(
    ([build, cwd]) =>
      [
        [build, 'ESM import', cwd, 'probe.mjs', esmProbe],
        [build, 'CJS require', cwd, 'probe.cjs', cjsProbe],
      ] as const,
  ),
)('packed tarball, %s, %s', (_build, _format, cwd, file, probe) => {
  let result: ProbeResult;
  beforeAll(() => {
    result = run(cwd(), file, probe(ENTRIES));
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
    const alone = run(webhooksOnly.get(cwd())!, file, probe(['telephony-sdk/webhooks']));
    expect(alone.exports['telephony-sdk/webhooks']).toBeInstanceOf(Array);
    expect(alone.webhookError).toMatchObject({
      name: 'WebhookVerificationError',
      reason: 'missing_header',
    });
  });
});

describe('packed tarball, bundlers', () => {
  /** The package files an esbuild bundle of every entry takes from node_modules (relative to it). */
  async function bundledInputs(options: {
    platform: 'node' | 'browser' | 'neutral';
    format: 'esm' | 'cjs';
    conditions?: string[];
  }): Promise<string[]> {
    const source =
      options.format === 'esm'
        ? ENTRIES.map((entry, i) => `export * as e${i} from '${entry}';`).join('\n')
        : `module.exports = [${ENTRIES.map((entry) => `require('${entry}')`).join(', ')}];`;
    const result = await build({
      stdin: { contents: source, resolveDir: project, sourcefile: 'app.js' },
      bundle: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      // Builtins stay external whatever the platform (the testing entry's Node server imports
      // node:http when started); what matters here is which files resolve.
      external: ['node:*', ...builtinModules],
      ...options,
    });
    return Object.keys(result.metafile.inputs)
      .map((path) => /node_modules\/(.+)$/.exec(path)?.[1] ?? '')
      .filter(Boolean);
  }

  it.each([
    ["a Node app (platform node, esbuild's conditions: module, node)", 'node', 'esm', undefined],
    ['a Node app that requires', 'node', 'cjs', undefined],
    ['a browser app', 'browser', 'esm', undefined],
    ['a Workers app (conditions workerd, worker, browser)', 'node', 'esm', ['workerd', 'worker', 'browser']],
    ['an edge function (condition edge-light)', 'neutral', 'esm', ['edge-light', 'import']],
  ] as const)(
    '%s takes dist/ and shares ky, zod and eventemitter3 with the app',
    async (_app, platform, format, conditions) => {
      const inputs = await bundledInputs({
        platform,
        format,
        ...(conditions ? { conditions: [...conditions] } : {}),
      });
      const sdkFiles = inputs.filter((path) => path.startsWith('telephony-sdk/'));
      expect(sdkFiles.length).toBeGreaterThan(0);
      expect(sdkFiles.filter((path) => path.startsWith('telephony-sdk/dist/node/'))).toEqual([]);
      const packages = new Set(inputs.map((path) => path.split('/')[0]));
      expect([...packages].sort()).toEqual(['eventemitter3', 'ky', 'telephony-sdk', 'zod']);
    },
  );

  it('a bundler that matches only node (no module condition) takes dist/node/, with its dependencies inside', async () => {
    const inputs = await bundledInputs({ platform: 'node', format: 'esm', conditions: ['node'] });
    expect(inputs).toEqual(
      expect.arrayContaining(['telephony-sdk/dist/node/index.js', 'telephony-sdk/dist/node/webhooks.js']),
    );
    // testing and redis (from dist/: they import no dependency) bring no other package either.
    expect(inputs.filter((path) => !path.startsWith('telephony-sdk/'))).toEqual([]);
  });
});

describe('packed tarball, TypeScript', () => {
  // A full tsc run over every entry's declarations: 27–37 s on a loaded 2-core machine, 40–91 s
  // with seven sessions' tests and benches beside it (load average 20+); 90 s timed out there once.
  const TSC_TIMEOUT_MS = 240_000;
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  const typeRoots = join(repoRoot, 'node_modules/@types');

  it.each([
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ] as const)(
    'typechecks every entry with module %s, moduleResolution %s',
    (module, resolution) => {
      writeFileSync(join(project, 'consumer.ts'), typescriptConsumer);
      writeFileSync(join(project, 'consumer.cts'), typescriptConsumer);
      const config = `tsconfig.${resolution}.json`;
      writeFileSync(join(project, config), consumerTsconfig(module, resolution, typeRoots));
      expect(compilerErrors(tsc, config)).toBe('');
    },
    TSC_TIMEOUT_MS,
  );

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
    TSC_TIMEOUT_MS,
  );
});

describe('packed tarball, contents', () => {
  it('ships the MIT LICENSE that package.json names', () => {
    const pkg = join(project, 'node_modules/telephony-sdk');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { license?: string };
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
  });

  it('names the repository, homepage and issue tracker (npm links README there)', () => {
    const pkg = join(project, 'node_modules/telephony-sdk');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['repository', 'homepage', 'bugs']) expect(manifest).toHaveProperty(field);
  });

  it('ships source maps that name no path of the build machine (every source relative to its map)', () => {
    const dist = join(project, 'node_modules/telephony-sdk/dist');
    const maps = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.map'),
    );
    expect(maps.length).toBeGreaterThan(10);
    expect(maps.filter((file) => file.startsWith('node/')).length).toBeGreaterThanOrEqual(3);
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

  it("ships the Node ESM build's maps for the SDK's own sources only, which the package ships beside them", () => {
    const dist = join(project, 'node_modules/telephony-sdk/dist/node');
    const maps = readdirSync(dist).filter((file) => file.endsWith('.map'));
    const sources = new Set<string>();
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(dist, file), 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      expect(map.sourcesContent, file).toBeUndefined();
      // The CJS pass also maps a few of its own helper lines to the file itself.
      const own = (source: string) =>
        source.startsWith('../src/') || source === file.slice(0, -'.map'.length);
      expect(
        map.sources.filter((source) => !own(source)),
        file,
      ).toEqual([]);
      for (const source of map.sources) {
        sources.add(source);
        expect(existsSync(join(dist, source)), `${file}: ${source}`).toBe(true);
      }
    }
    expect(sources).toContain('../src/client.ts');
    expect(sources).toContain('../src/webhooks/verify.ts');
  });

  it.each([
    ['stack.cjs', "const { TelephonyClient } = require('telephony-sdk');"],
    ['stack.mjs', "import { TelephonyClient } from 'telephony-sdk';"],
  ])(
    'maps a stack frame of the Node build to the SDK source line (node --enable-source-maps, %s)',
    (file, load) => {
      const script = `${load}
try { new TelephonyClient({ baseUrl: 'not a url' }); } catch (error) { console.log(error.stack); }`;
      writeFileSync(join(project, file), script);
      const stack = execFileSync(process.execPath, ['--enable-source-maps', file], {
        cwd: project,
        encoding: 'utf8',
      });
      const options = readFileSync(join(repoRoot, 'src/core/options.ts'), 'utf8').split('\n');
      const frame = /\((.*[/\\]src[/\\]core[/\\]options\.ts):(\d+):\d+\)/.exec(stack);
      expect(frame, stack).not.toBeNull();
      expect(options[Number(frame?.[2]) - 1]).toContain('throw invalid(');
      // The frame names the copy the package ships (dist/src/, comments blanked), at the same line.
      expect(frame?.[1]).toMatch(/node_modules[/\\]telephony-sdk[/\\]dist[/\\]src[/\\]core[/\\]options\.ts$/);
      const shipped = readFileSync(
        join(project, 'node_modules/telephony-sdk/dist/src/core/options.ts'),
        'utf8',
      );
      expect(shipped.split('\n')[Number(frame?.[2]) - 1]).toContain('throw invalid(');
    },
  );
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
