/**
 * The receiver recipes of docs/webhooks.md over the packed package: each ```ts block of the page,
 * compiled as tsx compiles it (esbuild, the legacy decorators NestJS needs), runs in a Node app in
 * a temp project with the tarball installed (test/fixtures/consumers/framework-apps.js), in a real
 * instance of its framework on 127.0.0.1. A signed delivery gets 200 and runs the handler once,
 * again when repeated; a bad signature gets 401; a handler that throws gets 500. The wrong set-up
 * of each framework (a body parser before the receiver) gets the 500 whose message names its fix.
 * The frameworks are this repository's pinned devDependencies, linked into the project.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { signWebhook } from 'telephony-sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/tarball.js';
import { docRecipes } from '../helpers/doc-recipes.js';
import { packedProject } from './packed-project.js';

const SECRET = 'whsec_frameworks';
/** What the recipes and the app import, besides the SDK. */
const FRAMEWORKS = [
  'express',
  'fastify',
  'koa',
  'hono',
  '@hono/node-server',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'reflect-metadata',
  'rxjs',
];
const RECIPES = ['express', 'express-json-first', 'fastify', 'koa', 'nest', 'hono'];

let project = '';
let app: ChildProcess | undefined;
let urls: Record<string, string> = {};
/** The file the app's `telephony-sdk/webhooks` resolved to. */
let sdk = '';

beforeAll(async () => {
  project = await packedProject('telephony-sdk-frameworks-');
  for (const name of FRAMEWORKS) {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', name), join(project, 'node_modules', name));
  }
  mkdirSync(join(project, 'recipes'));
  for (const { path, code } of docRecipes()) {
    const compiled = await transform(code, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      tsconfigRaw: { compilerOptions: { experimentalDecorators: true, verbatimModuleSyntax: true } },
    });
    writeFileSync(join(project, 'recipes', `${basename(path, '.ts')}.js`), compiled.code);
  }
  copyFileSync(join(repoRoot, 'test/fixtures/consumers/framework-apps.js'), join(project, 'app.js'));
  app = fork(join(project, 'app.js'), {
    cwd: project,
    env: { ...process.env, WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = once(app, 'exit').then(([code]) => {
    throw new Error(`the app exited (${code}) before it listened`);
  });
  const started = once(app, 'message') as Promise<[{ urls: Record<string, string>; sdk: string }]>;
  [{ urls, sdk }] = await Promise.race([started, exited]);
}, 300_000);

afterAll(async () => {
  if (app?.connected) {
    const exited = once(app, 'exit');
    app.disconnect();
    await exited;
  }
  rmSync(project, { recursive: true, force: true });
});

let next = 0;
/** A delivery of a `type` event signed with `secret`: its body and signature header. */
async function delivery(type: string, secret = SECRET) {
  const id = `evt_fw_${++next}`;
  const body = JSON.stringify({
    id,
    type,
    created_at: new Date().toISOString(),
    data: { call: { id: 'call_1', from: { number: '+15550001111' }, to: { number: '+15550002222' } } },
  });
  return { id, body, signature: await signWebhook(body, secret) };
}

/** POSTs `delivery` to the app `name`; resolves with the answer's status and body. */
async function post(name: string, { body, signature }: { body: string; signature: string }) {
  const res = await fetch(urls[name] as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-signature': signature },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/** The ids each app's handler ran for, as the app records them. */
async function ran(): Promise<Record<string, string[]>> {
  const answered = once(app as ChildProcess, 'message') as Promise<[{ ran: Record<string, string[]> }]>;
  app?.send('ran');
  return (await answered)[0].ran;
}

describe('packed tarball, the receiver recipes of docs/webhooks.md in their frameworks', () => {
  it('the app loads the installed tarball, the Node build', () => {
    expect(sdk).toBe(pathToFileURL(join(project, 'node_modules/telephony-sdk/dist/node/webhooks.js')).href);
  });

  it('the page has a recipe for each framework the app serves, and no other', () => {
    expect(
      docRecipes()
        .map(({ path }) => basename(path, '.ts'))
        .sort(),
    ).toEqual([...RECIPES].sort());
  });

  it.each(RECIPES)(
    '%s: a signed delivery 200 and its handler ran once, a repeat 200, a bad signature 401 and a failing handler 500, each with its JSON reason',
    async (name) => {
      const good = await delivery('call.incoming');
      const answers = {
        good: await post(name, good),
        repeat: await post(name, good),
        badSignature: await post(name, await delivery('call.incoming', 'whsec_wrong')),
        failing: await post(name, await delivery('call.missed')),
      };
      expect(answers).toEqual({
        good: { status: 200, text: '' },
        repeat: { status: 200, text: '' },
        badSignature: { status: 401, text: '{"error":"signature_mismatch"}' },
        failing: { status: 500, text: '{"error":"handler_failed"}' },
      });
      expect((await ran())[name]).toEqual([good.id]);
    },
  );
});

describe('packed tarball, a body parser before the receiver: the 500 names the fix for the framework', () => {
  it.each([
    [
      'express, express.json() first',
      /^Body already read by a body parser: .*express\.raw\(\{ type: 'application\/json' \}\).*NestJS.*rawBody: true/,
    ],
    [
      'nest, without rawBody',
      /^Body already read by a body parser: .*express\.raw\(\{ type: 'application\/json' \}\).*NestJS.*rawBody: true/,
    ],
    [
      'fastify, its JSON parser and nodeHandler',
      /^Body already read by Fastify's JSON parser.*parseAs: 'buffer'.*receiver\.handle/,
    ],
    ['koa, a body parser first', /mount the receiver before it, set ctx\.respond = false/],
  ])('%s', async (name, message) => {
    const answer = await post(name, await delivery('call.incoming'));
    expect(answer.status).toBe(500);
    expect(answer.text).toMatch(message);
    expect((await ran())[name]).toEqual([]);
  });
});
