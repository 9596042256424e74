import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*.test.ts'],
    // Run by consumer.test.ts while other packages' tests load the same cores: the first test
    // loads the handlers and the server's engine, which can take longer than Vitest's 5 s.
    testTimeout: 30_000,
    typecheck: { enabled: true, include: ['*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
