import { defineConfig } from 'vitest/config';

// One `npm start` serves the whole file; its start (the mock's Prism, the server's migrations) can
// take a while on a loaded two-core machine.
export default defineConfig({
  test: {
    isolate: false,
    globalSetup: ['test/global-setup.mjs'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
