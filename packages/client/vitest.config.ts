import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
  test: {
    isolate: false,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Type tests: test/*.test-d.ts, compiled with tsc; an unused @ts-expect-error fails them too.
    // Vitest runs tsc over the whole tsconfig (src, tests, configs), and an error outside the type
    // tests fails the run as well: this is the package's type check (no separate lint task).
    typecheck: { enabled: true, ignoreSourceErrors: false, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
