// Two projects run the same suites: `sqlite` (the embedded store) and `postgres` (a private
// PostgreSQL server started by test/harness/global-postgres.ts). Tests that do not touch the
// store (test/unit) run once; `*.postgres.test.ts` need PostgreSQL (two processes on one server);
// `*.sqlite.test.ts` check something other than the store, slowly, and run once.
import { defineConfig } from 'vitest/config';

const shared = {
  testTimeout: 60_000,
  // Test files share a worker's loaded modules (each starts its own servers on its own store).
  isolate: false,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    // Modules transformed once are kept on disk (node_modules/.experimental-vitest-cache, keyed by
    // their content and the config): the second project of a run and later runs reuse them.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.postgres.test.ts'],
          env: { CLOUDAPI_TEST_ENGINE: 'sqlite' },
          globalSetup: ['test/harness/global-temp.ts'],
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/**/*.sqlite.test.ts'],
          env: { CLOUDAPI_TEST_ENGINE: 'postgres' },
          globalSetup: ['test/harness/global-temp.ts', 'test/harness/global-postgres.ts'],
        },
      },
    ],
  },
});
