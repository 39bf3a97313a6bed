/**
 * The sandbox as a user starts it, `telephony-sandbox --port 0` (the built package's bin), for the
 * Worker legs' checks: its base URL and credentials are read from what it prints, and lines written
 * to its standard input simulate incoming calls.
 */
import { spawn } from 'node:child_process';

export interface SandboxCli {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Types one command, e.g. `incoming +15551234567 answered`. */
  type(line: string): void;
  close(): Promise<void>;
}

export async function startSandboxCli(dist: string): Promise<SandboxCli> {
  const child = spawn(process.execPath, [`${dist}/cli.cjs`, '--port', '0'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const field = (label: string) => stdout.match(new RegExp(`${label}:\\s+(\\S+)`))?.[1];
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (field('API key')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`telephony-sandbox exited (${code}): ${stderr.trim()}`)));
    });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    baseUrl: field('baseUrl and baseUrlV1') ?? '',
    clientId: field('client id') ?? '',
    clientSecret: field('client secret') ?? '',
    type: (line) => child.stdin.write(`${line}\n`),
    close,
  };
}
