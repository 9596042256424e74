// `npm start`: builds the whole pipeline through Turbo, then reports what it produced.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

const build = spawnSync(npx, ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: rootDir, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('\n✖ build failed; the output above says which task and why.');
  process.exit(build.status || 1);
}

const bundle = path.join(rootDir, 'spec/dist/openapi.json');
const document = JSON.parse(readFileSync(bundle, 'utf8'));
const operations = Object.values(document.paths).flatMap((item) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]));
const kib = (file) => `${(statSync(file).size / 1024).toFixed(0)} KiB`;
console.log(`\nCloud Account Management API ${document.info.version}: ${operations.length} operations, ${Object.keys(document.components.schemas).length} schemas`);
for (const file of ['spec/dist/openapi.yaml', 'spec/dist/openapi.json', 'packages/types/dist/index.d.ts', 'packages/client/dist/index.js', 'packages/client/dist/index.cjs']) {
  const full = path.join(rootDir, file);
  if (existsSync(full)) console.log(`  ${file.padEnd(32)} ${kib(full)}`);
}
