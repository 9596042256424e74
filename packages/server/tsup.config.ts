// One ESM bundle for the library (`dist/index.js`) and one for the command line (`dist/cli.js`).
// Dependencies stay external; the catalogue (data/catalogue.json) is bundled in.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  dts: false,
});
