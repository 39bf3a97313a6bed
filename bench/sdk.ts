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
  request(spec: { method: 'GET'; path: string }, options?: { signal?: AbortSignal }): Promise<unknown>;
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
/**
 * `TELEPHONY_SDK_BASELINE_DIST=<dir>`: rows 1 and 2 also measure that build (an earlier commit's dist)
 * beside ./dist, so a change is measured before and after in the same run.
 */
const baselineDir = process.env.TELEPHONY_SDK_BASELINE_DIST;

async function load<T>(dir: string, file: string, exportName: string): Promise<T | undefined> {
  if (!existsSync(join(dir, file))) return undefined;
  const module = (await import(join(dir, file))) as Record<string, unknown>;
  return typeof module[exportName] === 'function' ? (module as T) : undefined;
}

export const loadSdk = () => load<SdkModule>(distDir, 'index.js', 'TelephonyClient');
export const loadBaselineSdk = async () =>
  baselineDir === undefined ? undefined : load<SdkModule>(baselineDir, 'index.js', 'TelephonyClient');
export const loadSdkWebhooks = () => load<SdkWebhooksModule>(distDir, 'webhooks.js', 'verifyWebhook');

/** The events the fleet rows listen to (`client.on`), typed loosely: only the fields read. */
export interface SdkEventfulClient extends SdkClient {
  on(event: 'response', listener: (event: { status: number; url: string }) => void): unknown;
  on(event: 'retry', listener: (event: { delayMs: number; reason: string }) => void): unknown;
  on(event: 'throttle', listener: (event: { waitMs: number; reason: string }) => void): unknown;
  on(event: 'token' | 'shared_state_error', listener: (event: unknown) => void): unknown;
}

/** A `SharedState` as the benchmarks call it (`reserve` only; the `now` is not used by redisState). */
export interface SdkSharedState {
  reserve(
    scope: string,
    budget: { limit: number; windowMs: number } | undefined,
    now: number,
  ): Promise<{ waitMs: number; reason: string | undefined }>;
}

/** `telephony-sdk/redis`. */
export interface SdkRedisModule {
  redisState(client: unknown, options?: { prefix?: string }): SdkSharedState;
}

/** One budget of `sandbox.rateReport()`. */
export interface SdkRateUsage {
  version: 'v1' | 'v2';
  id: string;
  limit: number;
  counted: number;
  rejected: number;
  maxInWindow: number;
  tokensIssued: number;
}

/** `telephony-sdk/testing`, the parts the fleet rows use: a real-time sandbox served on 127.0.0.1. */
export interface SdkTestingModule {
  createSandbox(options: {
    clients: Array<{ clientId: string; clientSecret: string; plan: { requestsPerMinute: number } }>;
    clock: { mode: 'realtime' };
  }): {
    listen(): Promise<{ url: string; close(): Promise<void> }>;
    rateReport(): SdkRateUsage[];
    close(): void;
  };
}

export const loadSdkRedis = () => load<SdkRedisModule>(distDir, 'redis.js', 'redisState');
export const loadSdkTesting = () => load<SdkTestingModule>(distDir, 'testing.cjs', 'createSandbox');
