// Two builds. The server: one ESM bundle for the library (`dist/index.js`) and one for the
// command line (`dist/cli.js`), with the catalogue (data/catalogue.json) and the JavaScript
// dependencies bundled in: resolving and loading a few hundred module files took most of the
// start-up time. The native SQLite driver and the PostgreSQL driver stay external (loaded only by
// the engine in use). The browser engine (`dist/engine.js`, `@cloudapi/server/engine`): the same
// areas for a browser, platform/browser.ts in place of platform/node.ts, sql.js and its
// WebAssembly inlined, the other ES-module dependencies left to the consumer's bundler
// (@cloudapi/msw).
import path from 'node:path';
import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';

// CommonJS dependencies inside an ESM bundle still call require() and read __dirname.
const commonJsGlobals = [
  "import { createRequire as __createRequire } from 'node:module';",
  "import { fileURLToPath as __fileURLToPath } from 'node:url';",
  "import { dirname as __pathDirname } from 'node:path';",
  'const require = __createRequire(import.meta.url);',
  'const __filename = __fileURLToPath(import.meta.url);',
  'const __dirname = __pathDirname(__filename);',
].join(' ');

/** Every import of platform/node.js resolves to platform/browser.ts in the browser engine. */
const browserPlatform: Plugin = {
  name: 'browser-platform',
  setup(build) {
    build.onResolve({ filter: /\/platform\/node\.js$/ }, () => ({ path: path.resolve('src/platform/browser.ts') }));
  },
};

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/cli.ts'],
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    // The engine's bundle is the other build's (kept when this one cleans dist).
    clean: ['!engine.*'],
    // Declarations for the library and the browser engine (the command line has no API), both
    // here: one TypeScript program for the two, not one per build (about 9 CPU-seconds less).
    // noCheck: declarations only, with no type check of their own (same files, 13 s to 5 s on the
    // critical path of every build); `npm run lint` (tsc) type-checks src and test.
    dts: { entry: { index: 'src/index.ts', engine: 'src/engine.ts' }, compilerOptions: { noCheck: true } },
    noExternal: [/^(?!better-sqlite3$|better-sqlite3-napi$|@cloudapi\/sqlite-node20$|pg$|pg-native$)/],
    banner: { js: commonJsGlobals },
  },
  {
    entry: { engine: 'src/engine.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'browser',
    sourcemap: false,
    clean: false,
    dts: false, // the first build writes dist/engine.d.ts
    // fast-json-stringify reads `process.versions` when it loads (only to choose fast paths of
    // newer Node versions): bundled here with those reads answered as on a runtime that is not
    // Node, with the CommonJS modules it requires (Ajv among them).
    noExternal: ['sql.js', 'fast-json-stringify', /^ajv/, 'fast-uri', 'rfdc', 'json-schema-ref-resolver', '@fastify/merge-json-schemas'],
    define: { 'process.versions.v8': 'undefined', 'process.versions.node': 'undefined' },
    loader: { '.wasm': 'binary' },
    esbuildPlugins: [browserPlatform],
  },
]);
