// The size of the built ESM client as an application ships it, minified and gzipped: the package's
// own code (src/, without its dependencies: openapi-fetch, and the spec's generated data in
// @cloudapi/types, which grows with the spec rather than with the client), and the whole bundle
// with both. `npm run size` prints both; test/package.test.ts holds the own code to its budget.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The budget of the package's own code, in bytes of gzip (3.9 kB). See README "Size and overhead". */
export const SIZE_BUDGET_GZIP = 3900;

async function bundle(entry, external) {
  const result = await build({
    entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'neutral', mainFields: ['module', 'main'],
    external, write: false, metafile: true, logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}

/** `own`: the package's code alone; `whole`: bundled with its dependencies. */
export async function measureSize(entry = path.join(packageDir, 'dist', 'index.js')) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first.`);
  const [own, whole] = await Promise.all([bundle(entry, ['openapi-fetch', '@cloudapi/types']), bundle(entry, [])]);
  return { own, whole };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { own, whole } = await measureSize();
  const line = (name, { minified, gzip }) => `${name.padEnd(34)} ${String(minified).padStart(6)} B minified  ${String(gzip).padStart(5)} B min+gzip`;
  console.log('@cloudapi/client, ESM, minified by esbuild, gzip level 9:');
  console.log(line('own code (src/)', own), ` (budget ${SIZE_BUDGET_GZIP} B)`);
  console.log(line('with openapi-fetch and the types', whole));
}
