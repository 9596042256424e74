import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    isolate: false,
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    // Two files at a time: the tarballs come packed (the pack task), and what is left waits on npm,
    // git and the installed programs as much as it computes (Vitest's default on two cores is one).
    maxWorkers: 2,
  },
});
