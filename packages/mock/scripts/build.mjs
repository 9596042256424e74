// Writes dist/openapi.mock.json, the bundle with its paths under the API's base path (see
// src/derive.mjs), atomically so a running mock never reads half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { basePathOf, deriveMockDocument } from '../src/derive.mjs';

const require = createRequire(import.meta.url);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = JSON.parse(readFileSync(require.resolve('@cloudapi/spec/openapi.json'), 'utf8'));
const out = path.join(packageDir, 'dist', 'openapi.mock.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(`${out}.tmp`, `${JSON.stringify(deriveMockDocument(bundle), null, 2)}\n`);
renameSync(`${out}.tmp`, out);
console.log(`✔ mock document: ${Object.keys(bundle.paths).length} paths under ${basePathOf(bundle) || '/'} → packages/mock/dist/openapi.mock.json`);
