import { defineConfig } from 'vitest/config';

// Seven generators over a ~600 KB bundle, each output compiled in its own TypeScript program, two
// at a time: about a minute on two idle cores, several on a loaded machine.
export default defineConfig({
  test: { isolate: false, testTimeout: 120_000, hookTimeout: 600_000 },
});
