#!/usr/bin/env node
// `npm run contract:server [-- kit options]`: the whole contract against the reference server,
// in one command: starts it (fresh data, tokens made for the scope checks, a free port), runs
// the kit with those tokens, --allow-destructive and --examples 20 (override them after --),
// stops the server, and exits with the kit's status.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root, startServer } from './server.mjs';

let server;
try {
  server = await startServer();
} catch (error) {
  console.error(`✖ the run could not be made: ${error.message}\nsuccess validated 0/0`);
  process.exit(2);
}
console.log(`reference server at ${server.baseUrl} (tokens: ${server.tokensFile})`);
const args = ['--base-url', server.baseUrl, '--tokens', server.tokensFile, '--allow-destructive', '--examples', '20', ...process.argv.slice(2)];
const kit = spawn(process.execPath, [path.join(root, 'packages/contract/bin/cloudapi-contract.mjs'), ...args], { stdio: 'inherit' });
const stopKit = () => kit.kill('SIGINT');
process.on('SIGINT', stopKit);
const code = await new Promise((resolve) => kit.on('close', (c) => resolve(c ?? 2)));
process.off('SIGINT', stopKit);
await server.stop();
process.exit(code);
