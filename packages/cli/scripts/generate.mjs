#!/usr/bin/env node
// Build step: writes dist/commands.json, the command table, from @cloudapi/spec's bundle.
// Never edited by hand; `npm run build` (Turbo) rewrites it whenever the bundle changes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '@cloudapi/spec/bundle';
import { buildTable } from './command-table.mjs';

const bundle = loadBundle();
const table = buildTable(bundle);
const out = fileURLToPath(new URL('../dist/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}commands.json`, `${JSON.stringify(table)}\n`);
console.log(`dist/commands.json: ${table.commands.length} commands in ${Object.keys(table.areas).length} areas`);
