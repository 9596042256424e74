// The size of the built ESM client as an application ships it: bundled with openapi-fetch,
// minified and gzipped. `npm run size` prints it; test/package.test.ts holds it to the budget.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The budget, in bytes of gzip: openapi-fetch is about 2.6 KB of it. See README "Size and overhead". */
export const SIZE_BUDGET_GZIP = 6 * 1024;

export async function measureSize(entry = path.join(packageDir, 'dist', 'index.js')) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first.`);
  const result = await build({
    entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'neutral', mainFields: ['module', 'main'],
    write: false, metafile: true, logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { minified, gzip } = await measureSize();
  console.log(`@cloudapi/client (ESM, with openapi-fetch): ${(minified / 1024).toFixed(2)} KiB minified, ${(gzip / 1024).toFixed(2)} KiB min+gzip (budget ${(SIZE_BUDGET_GZIP / 1024).toFixed(2)} KiB)`);
}
