// The browser engine's build (dist/engine.js, `@cloudapi/server/engine`): bundled for a browser
// with every dependency it imports, nothing of Node may be reached (esbuild fails on a Node
// built-in with platform browser, and the inputs are checked too), and its size is printed: what
// a team's development build carries when it uses @cloudapi/msw's stateful mode.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const engine = fileURLToPath(new URL('../../dist/engine.js', import.meta.url));

describe('the browser engine build', () => {
  it('bundles for a browser with no Node built-in anywhere, and says how large it is', async () => {
    expect(existsSync(engine), 'dist/engine.js: run `npm run build -w @cloudapi/server` first').toBe(true);
    const result = await build({
      entryPoints: [engine], bundle: true, format: 'esm', platform: 'browser', target: 'es2022',
      minify: true, write: false, metafile: true, logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((file) => /^node:|^(fs|path|crypto|net|os|stream|zlib|worker_threads|module)$/.test(file))).toEqual([]);
    expect(inputs.some((file) => file.includes('better-sqlite3') || file.includes('/pg/') || file.includes('fastify/'))).toBe(false);
    const code = result.outputFiles[0]!.contents;
    // SQLite's WebAssembly is inlined (base64): no file to serve, nothing to fetch.
    const wasm = readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm-browser.wasm'));
    expect(new TextDecoder().decode(code)).toContain(wasm.subarray(0, 48).toString('base64'));
    console.log(`browser engine, minified with its dependencies: ${(code.length / 1e6).toFixed(2)} MB (gzip ${(gzipSync(code).length / 1e6).toFixed(2)} MB), of which SQLite's WebAssembly ${(wasm.length / 1e6).toFixed(2)} MB before base64`);
  });
});
