// One ESM bundle for the library (`dist/index.js`) and one for the command line (`dist/cli.js`),
// with the catalogue (data/catalogue.json) and the JavaScript dependencies bundled in: resolving
// and loading a few hundred module files took most of the start-up time. The native SQLite
// driver and the PostgreSQL driver stay external (loaded only by the engine in use).
import { defineConfig } from 'tsup';

// CommonJS dependencies inside an ESM bundle still call require() and read __dirname.
const commonJsGlobals = [
  "import { createRequire as __createRequire } from 'node:module';",
  "import { fileURLToPath as __fileURLToPath } from 'node:url';",
  "import { dirname as __pathDirname } from 'node:path';",
  'const require = __createRequire(import.meta.url);',
  'const __filename = __fileURLToPath(import.meta.url);',
  'const __dirname = __pathDirname(__filename);',
].join(' ');

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // Declarations for the library entry only (the command line has no API).
  dts: { entry: 'src/index.ts' },
  noExternal: [/^(?!better-sqlite3$|better-sqlite3-napi$|@cloudapi\/sqlite-node20$|pg$|pg-native$)/],
  banner: { js: commonJsGlobals },
});
