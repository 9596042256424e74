// ESM build of the kit (`dist/index.js`, the CLI, the Vitest entry) with declaration files. The
// spec's walkers, Ajv, fast-check and commander stay dependencies, not bundled.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/vitest.ts'],
  format: ['esm'],
  // Declarations only, with no type check of their own (TypeScript's noCheck, same output, half
  // the CPU): `npm run lint` (tsc) type-checks the package.
  dts: { compilerOptions: { noCheck: true } },
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  external: ['vitest'],
});
