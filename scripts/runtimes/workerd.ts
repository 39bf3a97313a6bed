/**
 * Cloudflare's runtime for the workerd leg and the module-scope Worker test: the npm `workerd`
 * binary (its version pinned in package.json) serves one Worker on a free 127.0.0.1 port. Offline:
 * nothing is downloaded at run time, and the Worker may reach 127.0.0.1 only through its outbound.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import workerd, { version } from 'workerd';

/** A Worker's compatibility date and flags (wrangler's `compatibility_date`, `compatibility_flags`). */
export interface Compatibility {
  date: string;
  flags: string[];
}

/**
 * The oldest setting the SDK runs under (docs/runtimes.md): ky constructs streams, which workerd
 * allows from 2022-11-30 on (before it, only with `streams_enable_constructors`). No flag needed.
 */
export const MINIMUM_COMPATIBILITY: Compatibility = { date: '2022-11-30', flags: [] };
/** A Worker created today as `wrangler init` writes it: the binary's own date and `nodejs_compat`. */
export const CURRENT_COMPATIBILITY: Compatibility = { date: '2026-11-17', flags: ['nodejs_compat'] };

/** The binary's path. Node imports the CommonJS module whole as the default export; a bundler gives its `default`. */
const binary: string = typeof workerd === 'string' ? workerd : (workerd as { default: string }).default;
/** The workerd release the leg runs, e.g. `1.20261117.1`. */
export const WORKERD_VERSION = version;

export interface ServedWorker {
  url: string;
  close(): Promise<void>;
}

/** workerd's configuration: the Worker, text bindings, and an outbound network that includes loopback. */
function capnp(compatibility: Compatibility, bindings: Record<string, string>): string {
  const text = (value: string) => JSON.stringify(value);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = ${text(compatibility.date)},
  compatibilityFlags = [${compatibility.flags.map(text).join(', ')}],
  bindings = [${Object.entries(bindings)
    .map(([name, value]) => `(name = ${text(name)}, text = ${text(value)})`)
    .join(', ')}],
  globalOutbound = "loopback",
);
`;
}

/** `workerd serve` on `code` (an ES module Worker); resolves once it listens, with its URL. */
export async function serveWorkerd(
  code: string,
  compatibility: Compatibility,
  bindings: Record<string, string> = {},
): Promise<ServedWorker> {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-sdk-workerd-'));
  writeFileSync(join(dir, 'worker.js'), code);
  writeFileSync(join(dir, 'config.capnp'), capnp(compatibility, bindings));
  // --control-fd: workerd writes a JSON line per socket it listens on, with the port it got.
  const child: ChildProcess = spawn(binary, ['serve', join(dir, 'config.capnp'), '--control-fd=3'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const close = async () => {
    // SIGKILL: on SIGTERM workerd drains open connections first, and a kept-alive one holds it.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on('line', (line) => {
        const message = JSON.parse(line) as { event?: string; port?: number };
        if (message.event === 'listen' && message.port !== undefined) resolve(message.port);
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`workerd exited (${code}): ${stderr.trim().slice(0, 2000)}`)),
      );
    });
    return { url: `http://127.0.0.1:${port}`, close };
  } catch (error) {
    await close();
    throw error;
  }
}
