// ESM (`dist/index.js`) and CommonJS (`dist/index.cjs`) builds with their declaration files
// (`index.d.ts`, `index.d.cts`); openapi-fetch and the generated types stay dependencies. The X-Filter
// encoder of `@cloudapi/spec/filter-header` (a devDependency) is bundled in: a few lines, no spec.
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Declarations only, with no type check of their own (TypeScript's noCheck, same output, a
  // third of the CPU): the package's test run type-checks every file (Vitest's typecheck).
  dts: { compilerOptions: { noCheck: true } },
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  clean: true,
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
});
