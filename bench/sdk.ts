/**
 * The built SDK (dist/, what users run), loaded only when the pieces a row needs exist yet.
 * Typed structurally with just what the benchmarks call, so bench/ typechecks while the SDK
 * is being written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SdkPage {
  items: unknown[];
}

export interface SdkClient {
  calls: {
    listRecent(params?: { limit?: number }): PromiseLike<SdkPage> & AsyncIterable<unknown>;
  };
}

export interface SdkModule {
  TelephonyClient: new (options: Record<string, unknown>) => SdkClient;
}

export interface SdkWebhooksModule {
  verifyWebhook(
    body: string | Uint8Array,
    header: string | null,
    secret: string,
    options?: Record<string, unknown>,
  ): Promise<unknown>;
  signWebhook(body: string | Uint8Array, secret: string, options?: { timestamp?: number }): Promise<string>;
}

/** `TELEPHONY_SDK_DIST=<dir>` measures another build of the package (e.g. a branch's dist) instead of ./dist. */
const distDir = process.env.TELEPHONY_SDK_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const dist = (file: string) => join(distDir, file);

async function load<T>(file: string, exportName: string): Promise<T | undefined> {
  if (!existsSync(dist(file))) return undefined;
  const module = (await import(dist(file))) as Record<string, unknown>;
  return typeof module[exportName] === 'function' ? (module as T) : undefined;
}

export const loadSdk = () => load<SdkModule>('index.js', 'TelephonyClient');
export const loadSdkWebhooks = () => load<SdkWebhooksModule>('webhooks.js', 'verifyWebhook');
