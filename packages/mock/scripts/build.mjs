// Writes dist/openapi.mock.json, the bundle with its paths under the API's base path (see
// src/derive.mjs), atomically so a running mock never reads half a file.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { basePathOf, loadBundle } from '@cloudapi/spec/bundle';
import { deriveMockDocument } from '../src/derive.mjs';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = loadBundle();
const out = path.join(packageDir, 'dist', 'openapi.mock.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(`${out}.tmp`, `${JSON.stringify(deriveMockDocument(bundle), null, 2)}\n`);
renameSync(`${out}.tmp`, out);
console.log(`✔ mock document: ${Object.keys(bundle.paths).length} paths under ${basePathOf(bundle) || '/'} → packages/mock/dist/openapi.mock.json`);
