import { defineConfig } from 'vitest/config';

// Runs of the kit take seconds on a loaded two-core machine; Prism takes a few to start.
export default defineConfig({
  test: { testTimeout: 120_000, hookTimeout: 60_000 },
});
