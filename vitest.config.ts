import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import what users import.
    alias: [
      { find: /^telephony-sdk\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^telephony-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^telephony-sdk\/redis$/, replacement: src('redis/index.ts') },
      { find: /^telephony-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The secret scan of every line the suite's clients log (test/helpers/secret-scan.ts).
    setupFiles: ['test/helpers/log-scan.setup.ts'],
    restoreMocks: true,
    testTimeout: 20_000,
  },
});
