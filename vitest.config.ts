import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { buildTests, repoRoot, SHIPPED_BUILDS } from './test/builds.js';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** `telephony-sdk` and its subpaths, each to the file `target` names (tests import what users import). */
const entries = (target: (entry: string) => string) =>
  ['telephony-sdk/webhooks', 'telephony-sdk/testing', 'telephony-sdk/redis', 'telephony-sdk'].map(
    (entry) => ({
      find: new RegExp(`^${entry}$`),
      replacement: target(entry),
    }),
  );

const SOURCES: Record<string, string> = {
  'telephony-sdk': src('index.ts'),
  'telephony-sdk/webhooks': src('webhooks/index.ts'),
  'telephony-sdk/testing': src('testing/index.ts'),
  'telephony-sdk/redis': src('redis/index.ts'),
};

export default defineConfig({
  test: {
    restoreMocks: true,
    testTimeout: 20_000,
    // The secret scan of every line the suite's clients log (test/helpers/secret-scan.ts).
    setupFiles: ['test/helpers/log-scan.setup.ts'],
    projects: [
      {
        extends: true as const,
        resolve: { alias: entries((entry) => SOURCES[entry] as string) },
        test: { name: 'unit', include: ['test/**/*.test.ts'] },
      },
      // The shipped builds are the tested builds: the public-API tests again against each build's
      // files, loaded by Node as a user's app loads them (test/builds.ts; built first, if stale,
      // by test/build-setup.ts).
      ...SHIPPED_BUILDS.map((build) => ({
        extends: true as const,
        resolve: {
          alias: entries((entry) =>
            join(
              repoRoot,
              entry === 'telephony-sdk/testing'
                ? 'dist/testing.cjs'
                : build.entries[entry as keyof typeof build.entries],
            ),
          ),
        },
        test: {
          name: `build:${build.name}`,
          include: buildTests(),
          env: { TELEPHONY_SDK_BUILD: build.name },
          globalSetup: ['test/build-setup.ts'],
          server: { deps: { external: [/[\\/]dist[\\/]/] } },
        },
      })),
    ],
  },
});
