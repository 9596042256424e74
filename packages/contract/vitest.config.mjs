import { defineConfig } from 'vitest/config';

// Runs of the kit take seconds on a loaded two-core machine; Prism takes a few to start.
// test/consumer/ is a project that uses @cloudapi/contract/vitest; a test runs it on its own.
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], exclude: ['test/consumer/**', 'node_modules/**'], testTimeout: 120_000, hookTimeout: 300_000 },
});
