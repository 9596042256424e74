// One ES module (`dist/index.js`) with its declarations. The spec's bundle and the @cloudapi/spec
// helpers (walk, request validation) are bundled in, so the package runs from its tarball alone,
// in Node.js and in a browser; msw (a peer), Ajv and the generated types stay dependencies.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: false,
  clean: true,
  noExternal: [/^@cloudapi\/spec/],
  external: ['msw', 'ajv', 'ajv-formats', '@cloudapi/types'],
});
