// ESM for Node: dist/main.js, with the modules a command needs only when it runs (the client,
// Ajv and the bundle) split into chunks that load on demand. scripts/generate.mjs then writes
// dist/commands.json beside them.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  clean: true,
});
