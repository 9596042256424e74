// `npm run build`: bundles spec/openapi.yaml and every file it references into one document with
// the real Redocly bundler, then writes spec/dist/openapi.yaml and spec/dist/openapi.json, and
// the same as OpenAPI 3.0.3 in spec/dist/openapi.3.0.{yaml,json}, printing what 3.0 cannot say.
// Both are staged next to their targets and renamed into place only when both are ready, so a
// failed run never leaves a half-written or mismatched pair behind.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { describeLosses, downConvert } from '../lib/down-convert.mjs';
import { runTool, specDir, withoutBanners } from './tools.mjs';

const distDir = path.join(specDir, 'dist');
const started = Date.now();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-bundle-'));
try {
  const bundled = path.join(scratch, 'openapi.yaml');
  const { code, stdout, stderr } = await runTool('@redocly/cli', 'redocly', ['bundle', 'openapi.yaml', '--output', bundled, '--config', 'redocly.yaml']);
  if (code !== 0) {
    console.error(withoutBanners(`${stdout}\n${stderr}`));
    console.error('\n✖ bundle failed: fix the references above ($ref paths are relative to the file that holds them). spec/dist was left as it was.');
    process.exit(1);
  }
  const yamlText = readFileSync(bundled, 'utf8');
  const document = parse(yamlText);
  const { document: document30, losses } = downConvert(document);
  const outputs = {
    'openapi.yaml': yamlText,
    'openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'openapi.3.0.yaml': stringify(document30, { lineWidth: 0 }),
    'openapi.3.0.json': `${JSON.stringify(document30, null, 2)}\n`,
  };

  mkdirSync(distDir, { recursive: true });
  for (const [name, text] of Object.entries(outputs)) writeFileSync(path.join(distDir, `.${name}.tmp`), text);
  for (const name of Object.keys(outputs)) renameSync(path.join(distDir, `.${name}.tmp`), path.join(distDir, name));

  const operations = Object.values(document.paths || {})
    .flatMap((item) => Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k)));
  const schemas = Object.keys((document.components && document.components.schemas) || {});
  console.log(`✔ bundled ${Object.keys(document.paths || {}).length} paths, ${operations.length} operations, ` +
    `${schemas.length} schemas → spec/dist/openapi.{yaml,json} (${Date.now() - started} ms)`);
  console.log('✔ down-converted to OpenAPI 3.0.3 → spec/dist/openapi.3.0.{yaml,json}; what 3.0 cannot say was dropped (spec/DECISIONS.md section 16):');
  for (const line of describeLosses(losses)) console.log(`    ${line}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
