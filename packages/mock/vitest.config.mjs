import { defineConfig } from 'vitest/config';

// Every test talks to a Prism process; on a loaded two-core machine a request can take seconds.
export default defineConfig({
  test: {
    isolate: false, testTimeout: 30_000, hookTimeout: 60_000,
    // One example mock for the files that only send it requests (test/support/example-mock.mjs).
    globalSetup: ['test/support/example-mock.mjs'],
  },
});
