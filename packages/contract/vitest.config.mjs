import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Runs of the kit take seconds on a loaded two-core machine; Prism takes a few to start.
// test/consumer/ is a project that uses @cloudapi/contract/vitest; a test runs it on its own.
// Two files at a time: most of a file's time is waiting on loopback servers and child processes,
// so two workers halve the suite's wall time on two cores (vitest's default there is one).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'], exclude: ['test/consumer/**', 'node_modules/**'], testTimeout: 120_000, hookTimeout: 300_000,
    maxWorkers: Math.max(2, availableParallelism() - 1),
    isolate: false,
  },
});
