// One ES module (`dist/index.js`) with its declarations. The spec's bundle, the @cloudapi/spec
// helpers (walk, request validation) and the reference server's browser engine
// (@cloudapi/server/engine, with sql.js and its WebAssembly inlined) are bundled in, so the
// package runs from its tarball alone, in Node.js and in a browser; msw (a peer) and the ES-module
// dependencies of the engine (Kysely, secure-json-parse, @noble) and of the validation (Ajv) stay
// dependencies, so a consumer's bundler shares them with anything else that uses them.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Declarations only, with no type check of their own (TypeScript's noCheck, same output): the
  // package's test run type-checks every file (Vitest's typecheck).
  dts: { compilerOptions: { noCheck: true } },
  target: 'es2022',
  platform: 'neutral',
  sourcemap: false,
  clean: true,
  noExternal: [/^@cloudapi\/spec/, /^@cloudapi\/server/],
  external: ['msw', 'ajv', 'ajv-formats', '@cloudapi/types', 'kysely', 'secure-json-parse', /^@noble\//],
});
