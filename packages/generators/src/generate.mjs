// The code generators under test, and how one is run over an OpenAPI document into a folder.
// Everything runs offline: the input is a local file and no generator is asked to fetch. The
// generators run in a child process (src/run-generator.mjs, the host), not in the test's: some
// change the working folder or print, and a crash of one is its own result. A host runs one
// generator after another and keeps the libraries it loaded, so the seven over the bundle and the
// control documents after them load each library once per host rather than once per run.
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
 * @typedef {{ files: string[], ms: number, error?: string }} Generated the TypeScript files written,
 *   or `error` when the generator crashed or refused the document
 * @typedef {{ generate: (name: string, input: string, dir: string) => Promise<Generated>, stop: () => void }} GeneratorHost
 */

/**
 * A generators' host. `generate(name, input, dir)` runs one generator over the document in `input`
 * (a JSON file) into `dir`; calls made while one runs wait their turn. When the host dies during
 * a run (a generator that exits or throws out of reach), that run is answered with an error and
 * the next starts a new host. `stop()` ends it.
 * @returns {GeneratorHost}
 */
export function startGeneratorHost() {
  let child = null;
  let output = '';
  let last = Promise.resolve();
  const spawn = () => {
    const started = fork(runner, [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    started.stdout.on('data', (chunk) => { output = (output + chunk).slice(-20_000); });
    started.stderr.on('data', (chunk) => { output = (output + chunk).slice(-20_000); });
    started.on('exit', () => { if (child === started) child = null; });
    return started;
  };
  const run = (name, input, dir) => new Promise((resolve) => {
    const started = Date.now();
    if (!child?.connected) child = spawn();
    const host = child;
    output = '';
    const onMessage = (message) => { host.off('exit', onExit); resolve({ files: message.files ?? [], ms: Date.now() - started, ...(message.error ? { error: message.error } : {}) }); };
    const onExit = (code, signal) => {
      host.off('message', onMessage);
      resolve({ files: [], ms: Date.now() - started, error: `${name}: its host exited ${code ?? signal} without an answer\n${output.slice(-2000)}` });
    };
    host.once('message', onMessage);
    host.once('exit', onExit);
    host.send({ name, input, dir });
  });
  return {
    generate(name, input, dir) {
      const result = last.then(() => run(name, input, dir));
      last = result;
      return result;
    },
    stop() {
      child?.kill();
      child = null;
    },
  };
}
