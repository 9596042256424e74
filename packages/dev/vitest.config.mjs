import { defineConfig } from 'vitest/config';

// The loop test starts Prism, two lint workers and the docs build on a copy of the spec; on a
// loaded two-core machine each rebuild can take several seconds.
export default defineConfig({
  test: { isolate: false, testTimeout: 180_000, hookTimeout: 180_000 },
});
