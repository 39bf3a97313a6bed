import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  // A test that failed half-way must not leave its process running.
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

/**
 * `node --import tsx <script> <args>` from the repository root, as a user runs the CLI or an
 * example from a clone. `env` is added to a copy of this process's environment.
 */
export function runScript(script: string, args: string[] = [], env: Record<string, string | undefined> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    // stdin is a pipe the test may write to (the CLI reads commands there) or leave open.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    /** Resolves with stdout once it contains `marker`; rejects if the process exits first. */
    printed: (marker: string) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (!stdout.includes(marker)) return;
          child.stdout?.off('data', check);
          resolve(stdout);
        };
        child.stdout?.on('data', check);
        exited.then(([code, signal]) =>
          reject(new Error(`${script} exited (${code ?? signal}) before printing:\n${stdout}${stderr}`)),
        );
        check();
      }),
  };
}
