import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    isolate: false,
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/remove-temp-dirs.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
