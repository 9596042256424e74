import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    isolate: false,
    include: ['test/**/*.test.ts'],
    // test/consumer is the sample consumer's own suite, run from the tarballs by test/consumer.test.ts.
    exclude: ['**/node_modules/**', 'test/consumer/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Type tests: test/*.test-d.ts, compiled with tsc; an unused @ts-expect-error fails them too.
    // Vitest runs tsc over the whole tsconfig (src, tests, configs), and an error outside the type
    // tests fails the run as well: this is the package's type check (no separate lint task).
    typecheck: { enabled: true, ignoreSourceErrors: false, include: ['test/**/*.test-d.ts'], exclude: ['test/consumer/**'], tsconfig: './tsconfig.json' },
  },
});
