#!/usr/bin/env node
// The kit's command line (built from src/cli.ts into dist/ by `npm run build`).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('cloudapi-contract is not built: run `npm run build` (or `npm run contract`, which builds first).');
  process.exit(2);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
