import { defineConfig } from 'vitest/config';

// The bundle tests validate every example of a ~500 KB document and the style tests run both
// linters; on a loaded two-core machine (npm test runs every package at once) that takes
// seconds, well past Vitest's 5 s default.
export default defineConfig({
  test: { isolate: false, testTimeout: 60_000, hookTimeout: 180_000 },
});
