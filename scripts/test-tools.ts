/**
 * `npm test`'s pretest, and CI's steps before the tests: makes sure redis-server and Chromium are
 * installed (scripts/lib/test-tools.ts), installing them with apt-get when it can, so a fresh clone
 * is `npm install && npm test`. Without root or apt-get it exits 1 with the one command to run.
 */
import { execFileSync } from 'node:child_process';
import { missingTools, onPath, plan } from './lib/test-tools.js';

/** apt-get, up to three times 10 s then 20 s apart, so a slow mirror is not taken for a failure. */
function apt(args: string[]): void {
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('apt-get', args, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`apt-get ${args.join(' ')}: attempt ${attempt} failed, trying again`);
      execFileSync('sleep', [String(attempt * 10)]);
    }
  }
}

const decided = plan(missingTools(), process.getuid?.() === 0, onPath('apt-get'));
if (decided.action === 'fail') {
  console.error(decided.message);
  process.exit(1);
}
if (decided.action === 'install') {
  console.log(
    `installing for the tests: ${decided.tools.map((tool) => tool.aptPackage).join(', ')} (apt-get)`,
  );
  apt(['update', '-qq']);
  for (const tool of decided.tools) apt(['install', '-y', '-qq', ...tool.aptFlags, tool.aptPackage]);
  const still = missingTools();
  if (still.length > 0) {
    console.error(
      `apt-get installed them, but ${still.map((tool) => tool.name).join(' and ')} still cannot be found`,
    );
    process.exit(1);
  }
}
