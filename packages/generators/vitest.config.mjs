import { defineConfig } from 'vitest/config';

// Three generators over a ~600 KB bundle, then one TypeScript program over their output: tens of
// seconds on a loaded two-core machine.
export default defineConfig({
  test: { testTimeout: 120_000, hookTimeout: 300_000 },
});
