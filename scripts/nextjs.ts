/**
 * Next.js leg (`npm run test:nextjs`, builds first; CI: .ci/steps/35-nextjs.sh): the app of
 * test/fixtures/nextjs with the packed package installed, built by `next build` and served by
 * `next start` on 127.0.0.1, telemetry off and nothing fetched but from 127.0.0.1. Checks a signed
 * delivery to an edge route (`export const runtime = 'edge'`) and to a node route (200, the handler
 * ran; a bad signature 401), and a route whose client lists calls from a sandbox on 127.0.0.1.
 * Exits 1 on any failure.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../src/testing/index.js';
import { signWebhook } from '../src/webhooks/index.js';
import { ensureBuilt, packTarball, projectWithTarball, repoRoot } from './lib/tarball.js';

const SECRET = 'whsec_nextjs_fixture';
const { devDependencies } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const pinned = (name: string) => `${name}@${devDependencies[name]}`;

ensureBuilt();
const app = projectWithTarball(packTarball(), pinned('next'), pinned('react'), pinned('react-dom'));
cpSync(join(repoRoot, 'test/fixtures/nextjs'), app, { recursive: true });

const sandbox = createSandbox({ clock: { start: Date.now() } });
const service = await sandbox.listen({ port: 0 });
const call = sandbox.simulateIncomingCall({ from: '+15550001111' });

const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  TELEPHONY_WEBHOOK_SECRET: SECRET,
  TELEPHONY_BASE_URL: service.url,
  TELEPHONY_CLIENT_ID: sandbox.credentials.clientId,
  TELEPHONY_CLIENT_SECRET: sandbox.credentials.clientSecret,
};
const next = join(app, 'node_modules/next/dist/bin/next');
execFileSync(process.execPath, [next, 'build'], { cwd: app, env, stdio: 'inherit' });

/** `next start` on 127.0.0.1 and a free port; resolves with its URL and everything it printed. */
function start(): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', '0'], { cwd: app, env });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
      if (url) resolve({ url, child, output: () => output });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`next start exited ${code}:\n${output}`)));
  });
}

const server = await start();
const failures: string[] = [];
const check = (what: string, ok: boolean, detail: unknown) => {
  console.log(`${ok ? 'pass' : 'FAIL'} ${what} — ${JSON.stringify(detail)}`);
  if (!ok) failures.push(what);
};

try {
  for (const route of ['edge-hook', 'node-hook']) {
    const id = `evt_next_${route}`;
    const body = JSON.stringify({
      id,
      type: 'call.incoming',
      created_at: new Date().toISOString(),
      data: { call: { id: call.id, from: { number: '+15550001111' }, to: { number: '+15550002222' } } },
    });
    const post = async (secret: string) =>
      (
        await fetch(`${server.url}/api/${route}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'service-signature': await signWebhook(body, secret, {
              timestamp: Math.floor(Date.now() / 1000),
            }),
          },
          body,
        })
      ).status;
    const [good, bad] = [await post(SECRET), await post('whsec_wrong')];
    const ran = server.output().includes(`${route === 'edge-hook' ? 'edge' : 'node'} route received ${id}`);
    check(
      `${route}: signed delivery 200 and handler ran, bad signature 401`,
      good === 200 && bad === 401 && ran,
      { good, bad, ran },
    );
  }
  const listed = await fetch(`${server.url}/api/calls`);
  const { calls } = (await listed.json()) as { calls?: string[] };
  check('calls route lists the sandbox calls', listed.status === 200 && calls?.includes(call.id) === true, {
    status: listed.status,
    calls,
  });
} finally {
  server.child.kill();
  await service.close();
}
if (failures.length > 0) {
  console.error(server.output());
  process.exit(1);
}
console.log('Next.js: edge and node routes, and the client in a route, passed');
