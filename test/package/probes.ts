/**
 * Scripts run inside a consumer project that installed the packed tarball. Each prints one JSON
 * line: the export names of every entry it could load, or the load error, and what an error
 * thrown by `telephony-sdk/webhooks` is an instance of.
 */
export interface ProbeResult {
  exports: Record<string, string[] | { error: string }>;
  /** `verifyWebhook` without a header: the error's class name and whether it is the main entry's TelephonyError. */
  webhookError: { name: string; instanceOfMainTelephonyError: boolean; reason: unknown } | null;
  /** Both entries export the very same TelephonyError class (not a copy). */
  sameTelephonyError: boolean | null;
  /** Per entry, each exported class's export name → its `.name` (a build can rename classes). */
  classNames: Record<string, Record<string, string>>;
}

const body = (load: string) => `
const result = { exports: {}, webhookError: null, sameTelephonyError: null, classNames: {} };
const loaded = {};
const isClass = (value) => typeof value === 'function' && /^class\\b/.test(Function.prototype.toString.call(value));
for (const specifier of ENTRIES) {
  try {
    loaded[specifier] = ${load};
    result.exports[specifier] = Object.keys(loaded[specifier]).sort();
    result.classNames[specifier] = Object.fromEntries(
      Object.entries(loaded[specifier]).filter(([, value]) => isClass(value)).map(([key, value]) => [key, value.name]),
    );
  } catch (error) {
    result.exports[specifier] = { error: String(error && error.message || error).split('\\n')[0] };
  }
}
const main = loaded['telephony-sdk'];
const webhooks = loaded['telephony-sdk/webhooks'];
if (main && webhooks && webhooks.TelephonyError) result.sameTelephonyError = webhooks.TelephonyError === main.TelephonyError;
if (webhooks && typeof webhooks.verifyWebhook === 'function') {
  try {
    await webhooks.verifyWebhook('{}', null, 'whsec_probe');
  } catch (error) {
    result.webhookError = {
      name: error.name,
      instanceOfMainTelephonyError: main ? error instanceof main.TelephonyError : false,
      reason: error.reason,
    };
  }
}
console.log(JSON.stringify(result));
`;

/** ESM: `await import(specifier)`. */
export function esmProbe(entries: string[]): string {
  return `const ENTRIES = ${JSON.stringify(entries)};\n${body('await import(specifier)')}`;
}

/** CommonJS: `require(specifier)`, inside an async wrapper for the webhook check. */
export function cjsProbe(entries: string[]): string {
  return `const ENTRIES = ${JSON.stringify(entries)};\n(async () => {${body('require(specifier)')}})();`;
}

/** A TypeScript consumer: every entry imported, the shared base class used as a type. */
export const typescriptConsumer = `
import * as sdk from 'telephony-sdk';
import * as webhooks from 'telephony-sdk/webhooks';
import * as testing from 'telephony-sdk/testing';
import * as redis from 'telephony-sdk/redis';

const base: typeof sdk.TelephonyError = sdk.TelephonyError;
// Typechecks without redis or ioredis installed: the entry's types name neither package.
const state: sdk.SharedState = redis.redisState({ sendCommand: async (args: string[]) => args });
export const entries: object[] = [sdk, webhooks, testing, redis, base, state];
`;

/**
 * tsconfig for a consumer: `module`/`moduleResolution` and `lib` as given, strict, declarations
 * checked too. A Node project without lib DOM sees only @types/node's web globals.
 */
export function consumerTsconfig(
  module: 'nodenext' | 'esnext',
  moduleResolution: 'nodenext' | 'bundler',
  typeRoots: string,
  lib: readonly string[] = ['es2023', 'dom'],
) {
  return JSON.stringify({
    compilerOptions: {
      module,
      moduleResolution,
      target: 'es2022',
      lib,
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
      typeRoots: [typeRoots],
    },
    files: ['consumer.ts', 'consumer.cts'].filter((file) => module === 'nodenext' || file.endsWith('.ts')),
  });
}
