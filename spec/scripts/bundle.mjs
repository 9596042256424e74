// `npm run build`: bundles spec/openapi.yaml and every file it references into one document with
// Redocly's bundler (scripts/bundler.mjs), then writes spec/dist/openapi.yaml and
// spec/dist/openapi.json, and the same as OpenAPI 3.0.3 in spec/dist/openapi.3.0.{yaml,json},
// printing what 3.0 cannot say. All are staged next to their targets and renamed into place only
// when all are ready, so a failed run never leaves a half-written or mismatched set behind.
import path from 'node:path';
import { defaultBundleFile } from '../lib/bundle.mjs';
import { command, parse } from './cli.mjs';

parse(command('bundle', 'Bundles spec/openapi.yaml into spec/dist/openapi.yaml and spec/dist/openapi.json.'));
// Redocly loads after the command line is read: --help and usage errors answer at once.
const { BundleError, createBundler, edition30, writeAtomically } = await import('./bundler.mjs');
const { describeLosses } = await import('../lib/down-convert.mjs');

const started = Date.now();
let result;
try {
  result = await (await createBundler()).bundle();
} catch (error) {
  if (!(error instanceof BundleError)) throw error;
  console.error(error.message);
  console.error('\n✖ bundle failed: fix the references above ($ref paths are relative to the file that holds them). spec/dist was left as it was.');
  process.exit(1);
}
const { document, files } = result;
const { files: files30, losses } = edition30(document);
writeAtomically(path.dirname(defaultBundleFile()), { ...files, ...files30 });

const operations = Object.values(document.paths || {})
  .flatMap((item) => Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k)));
const schemas = Object.keys((document.components && document.components.schemas) || {});
console.log(`✔ bundled ${Object.keys(document.paths || {}).length} paths, ${operations.length} operations, ` +
  `${schemas.length} schemas → spec/dist/openapi.{yaml,json} (${Date.now() - started} ms)`);
console.log('✔ down-converted to OpenAPI 3.0.3 → spec/dist/openapi.3.0.{yaml,json}; what 3.0 cannot say was dropped (spec/DECISIONS.md section 16):');
for (const line of describeLosses(losses)) console.log(`    ${line}`);
