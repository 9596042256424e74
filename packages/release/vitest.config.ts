import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    // One file at a time: each packs and installs, and the machine has two cores.
    fileParallelism: false,
  },
});
