import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    isolate: false,
    include: ['test/**/*.test.mjs'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Type tests: test/*.test-d.ts, compiled with tsc against the generated dist/index.d.ts.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
