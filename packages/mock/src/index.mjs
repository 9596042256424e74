// Starts and stops the Prism mock of the API. `startMock()` resolves once Prism is listening,
// never after a fixed sleep, and `stop()` ends Prism and every process it started.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { basePathOf } from './derive.mjs';

const require = createRequire(import.meta.url);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const mockDocumentPath = path.join(packageDir, 'dist', 'openapi.mock.json');

function prismBin() {
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return path.join(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin.prism);
}

/** A port the OS says is free now, for callers that ask for port 0. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Prism's options for the two modes. Serving examples, `--errors` turns an example that breaks
 * its schema into a 500, so a wrong example fails loudly. Generating data (`--dynamic`), it stays
 * off: Prism's generator ignores cross-field rules (`if`/`then`, `maxContains`), and the body is
 * served with the missed rule named in the `sl-violations` header instead of a 500 for a spec that
 * is right. Invalid requests get their 400 and missing tokens their 401 in both modes. Generated
 * bodies get no extra properties, so they carry only fields the schemas declare.
 */
export function prismModeArgs({ dynamic = false, seed } = {}) {
  if (!dynamic) return ['--errors'];
  return ['--dynamic', '--json-schema-faker-fillProperties=false', ...(seed === undefined ? [] : ['--seed', String(seed)])];
}

/**
 * @param {object} [options]
 * @param {number} [options.port] 4010 by default; 0 picks a free port.
 * @param {string} [options.host] 127.0.0.1 by default.
 * @param {boolean} [options.dynamic] generate responses from the schemas instead of serving examples.
 * @param {string|number} [options.seed] with `dynamic`, makes the generated data repeatable.
 * @param {number} [options.timeoutMs] how long to wait for Prism to listen.
 * @returns {Promise<{url: string, baseUrl: string, port: number, stop: () => Promise<void>, output: () => string}>}
 *   `url` is the server root, `baseUrl` the API base (`url` + `/v4`).
 */
export async function startMock({ port = 4010, host = '127.0.0.1', dynamic = false, seed, timeoutMs = 30_000, document = mockDocumentPath } = {}) {
  if (!existsSync(document)) {
    throw new Error(`${document} is missing: run \`npm run build\` first (it derives the mock document from the spec's bundle).`);
  }
  const chosenPort = port === 0 ? await freePort(host) : port;
  const args = ['mock', document, '--host', host, '--port', String(chosenPort), ...prismModeArgs({ dynamic, seed })];
  // detached: Prism runs in its own process group, so stop() can end it and anything it spawned.
  const child = spawn(process.execPath, [prismBin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const collect = (chunk) => { output = (output + chunk).slice(-200_000); };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`Prism did not start listening within ${timeoutMs} ms.\n${output}`)), timeoutMs);
    const onData = () => { if (/Prism is listening on/.test(output)) { cleanup(); resolve(); } };
    const onExit = ({ code, signal }) => fail(new Error(`Prism exited before listening (code ${code}, signal ${signal}).\n${output}`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
    }
    function fail(error) {
      cleanup();
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      reject(error);
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then(onExit);
  });

  const url = `http://${host.includes(':') ? `[${host}]` : host}:${chosenPort}`;
  const bundle = JSON.parse(readFileSync(require.resolve('@cloudapi/spec/openapi.json'), 'utf8'));
  let stopping = null;
  return {
    url,
    baseUrl: `${url}${basePathOf(bundle)}`,
    port: chosenPort,
    output: () => output,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        try { process.kill(-child.pid, 'SIGTERM'); } catch { return; }
        const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 5_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
