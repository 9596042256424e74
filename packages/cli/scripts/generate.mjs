#!/usr/bin/env node
// Build step: writes dist/commands.json, the command table, from @cloudapi/spec's bundle.
// Never edited by hand; `npm run build` (Turbo) rewrites it whenever the bundle changes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildTable } from './command-table.mjs';

const require = createRequire(import.meta.url);
const bundle = JSON.parse(readFileSync(require.resolve('@cloudapi/spec/openapi.json'), 'utf8'));
const table = buildTable(bundle);
const out = fileURLToPath(new URL('../dist/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}commands.json`, `${JSON.stringify(table)}\n`);
console.log(`dist/commands.json: ${table.commands.length} commands in ${Object.keys(table.areas).length} areas`);
