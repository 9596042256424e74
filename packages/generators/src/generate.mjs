// The code generators under test, and how one is run over an OpenAPI document into a folder.
// Everything runs offline: the input is a local file and no generator is asked to fetch. Each
// generator runs in a child process of its own (src/run-generator.mjs): some change the working
// folder or print, and a crash of one is its own result.
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const runner = fileURLToPath(new URL('./run-generator.mjs', import.meta.url));

/**
 * The generators under test, in the order they are listed, each with the npm package whose
 * version is reported. Every output is compiled (strict); src/check.mjs reads some slot by slot.
 */
export const GENERATORS = {
  'openapi-typescript': { package: 'openapi-typescript' },
  '@hey-api/openapi-ts': { package: '@hey-api/openapi-ts' },
  oazapfts: { package: 'oazapfts' },
  'openapi-zod-client': { package: 'openapi-zod-client' },
  'typed-openapi': { package: 'typed-openapi' },
  orval: { package: 'orval' },
  kubb: { package: '@kubb/plugin-ts' },
};

/** The installed version of a generator's package (what package.json pins). */
export function versionOf(name) {
  // Found as Node finds the package (some export no `./package.json`): node_modules upwards.
  const manifest = require.resolve.paths(GENERATORS[name].package)
    .map((dir) => path.join(dir, GENERATORS[name].package, 'package.json'))
    .find((file) => existsSync(file));
  if (!manifest) throw new Error(`${GENERATORS[name].package} is not installed: run npm install`);
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/**
 * Runs one generator over the document in `input` (a JSON file) into `dir`, in a child process;
 * answers { files, ms } (the TypeScript files written) or { files: [], ms, error } when it
 * crashed or refused the document.
 * @param {string} name @param {string} input @param {string} dir
 * @returns {Promise<{ files: string[], ms: number, error?: string }>}
 */
export function generateOne(name, input, dir) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = fork(runner, [name, input, dir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let output = '';
    let result = null;
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('message', (message) => { result = message; });
    child.on('exit', (code, signal) => {
      const ms = Date.now() - started;
      if (result && result.files) resolve({ files: result.files, ms });
      else resolve({ files: [], ms, error: result?.error ?? `exited ${code ?? signal} without output\n${output.slice(-2000)}` });
    });
  });
}
