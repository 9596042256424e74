// Starts and stops the mock. This process only supervises: it holds the public port and hands
// each connection to a worker process (worker.mjs) that runs the front layer and Prism's engine.
//
// - `startMock()` resolves once the worker answers, never after a fixed sleep.
// - If the worker exits or is killed, the next connections wait while it is restarted (said on the
//   log), or go at once to a standby worker kept ready (`standby`, the bin's default). After too
//   many exits in a row the mock gives up: `failed` resolves with the cause, the port is closed,
//   and the bin exits 1 with it. A crash is never a clean exit.
// - The mock document is watched: a rewritten file (the build renames a new one into place) is
//   served without a restart; `reload()` does the same on demand and resolves once it is served.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watch as watchFile } from 'chokidar';
import { DEFAULT_MAX_BODY } from './body.mjs';
import { basePathOf, loadBundle } from '@cloudapi/spec/bundle';
import { parseFaults } from '@cloudapi/spec/faults';
import { parseAllowedHosts, parseCorsOrigins } from '@cloudapi/spec/trust';
import { operations as walkOperations } from '@cloudapi/spec/walk';
import { WorkerPool } from './workers.mjs';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const mockDocumentPath = path.join(packageDir, 'dist', 'openapi.mock.json');
export { DEFAULT_MAX_BODY };
export const DEFAULT_MAX_DEPTH = 64;

/** A port the OS says is free now, for callers that need a number before starting something. */
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

function checkDocument(file) {
  if (typeof file !== 'string') throw new Error('document must be the path of a mock document (see deriveMockDocument in @cloudapi/mock/derive).');
  try {
    JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error(`${file} is missing: run \`npm run build\` first (it derives the mock document from the spec's bundle).`);
    throw new Error(`${file} is not a readable JSON document: ${error.message}`);
  }
}

/**
 * Whether Prism's `--errors` is on. Serving examples, an example that breaks its schema answers a
 * 500 instead of being served as if right. Generating data it stays off (the generated data is
 * checked and repaired before it is served, see generation.mjs). In front of an implementation it
 * is `errors`: a violation then fails the answer (400 for the request, 502 for the response).
 */
function prismErrors({ dynamic, proxy, errors }) {
  if (proxy) return Boolean(errors);
  return !dynamic;
}

/** The implementation's root: the mock document's paths carry the base path (/v4/...) already. */
function upstreamOf(proxy, basePath) {
  let url;
  try { url = new URL(proxy); } catch { throw new Error(`--proxy "${proxy}" is not a URL, e.g. http://127.0.0.1:4020/v4.`); }
  if (!/^https?:$/.test(url.protocol)) throw new Error(`--proxy "${proxy}" must be an http or https URL.`);
  const trimmed = url.pathname.replace(/\/+$/, '');
  if (basePath && trimmed.endsWith(basePath)) url.pathname = trimmed.slice(0, -basePath.length) || '/';
  return url.href;
}

/** What each worker is started with (worker.mjs reads it), from startMock's options. */
function workerOptionsOf({ document, dynamic, seed, proxy, errors, maxBody, maxDepth, anchor, corsOrigins, allowedHosts, faults }, basePath) {
  return {
    document, dynamic, seed, maxBody, maxDepth, anchor, corsOrigins: parseCorsOrigins(corsOrigins), allowedHosts: parseAllowedHosts(allowedHosts), faults,
    errors: prismErrors({ dynamic, proxy, errors }),
    upstream: proxy ? upstreamOf(proxy, basePath) : undefined,
  };
}

/** The public port: connections arrive paused and go to the pool's active worker. */
async function listen(pool, port, host) {
  const server = createServer({ pauseOnConnect: true }, (socket) => pool.accept(socket));
  pool.server = server;
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => { server.off('error', reject); resolve(); });
    });
  } catch (error) {
    pool.abandon();
    throw new Error(error.code === 'EADDRINUSE' ? `${host}:${port} is already in use.` : error.message);
  }
  server.on('error', (error) => pool.giveUp(`the mock's server failed: ${error.message}`));
  return server;
}

/** Watches the mock document: a rewritten file (the build renames a new one into place) is served without a restart. */
async function watchDocument(document, pool, log) {
  let timer = null;
  const watcher = watchFile(document, { ignoreInitial: true, atomic: true });
  watcher.on('all', (event) => {
    if (event !== 'add' && event !== 'change') return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      pool.reload().then(
        ({ operations, ms }) => log(`↻ mock reloaded: ${operations} operations, served ${Math.round(ms)} ms after the change was seen`),
        (error) => log(`✖ mock reload failed, still serving the previous document: ${error.message}`),
      );
    }, 25);
  });
  await new Promise((resolve) => watcher.once('ready', resolve));
  return watcher;
}

/**
 * The running mock as its caller sees it.
 * @param {{ server: import('node:net').Server, pool: WorkerPool, watcher: { close(): Promise<void> } | null, host: string, basePath: string, mode: 'mock' | 'proxy' }} parts
 */
function mockHandle({ server, pool, watcher, host, basePath, mode }) {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let stopped = null;
  return {
    url,
    baseUrl: `${url}${basePath}`,
    port,
    mode,
    /** What the worker printed, for failure messages. */
    output: () => pool.output,
    /** Serves the mock document as it is on disk now; resolves once it is served. */
    reload: () => pool.reload(),
    /** Resolves with an Error if the mock gave up (Prism kept exiting); never otherwise. */
    failed: pool.failed,
    /** The pid of the worker (Prism and the front layer) serving now. */
    get prismPid() { return pool.active?.child.pid ?? null; },
    /** With `standby`: the pid of the worker ready to take over, once it is ready. */
    get standbyPid() { return pool.spare?.child?.pid ?? null; },
    /** With `anchor`: Prism's own HTTP server, without the front layer. */
    get prismUrl() { return pool.active?.prismPort ? `http://127.0.0.1:${pool.active.prismPort}` : null; },
    /** Proxy mode: counts of the exchanges and of the violations so far. */
    stats: () => ({ ...pool.totals, violations: pool.totals.responseViolations + pool.totals.acceptedInvalid }),
    /** Proxy mode: the violation lines logged so far. */
    violations: () => [...pool.violationLines],
    stop() {
      stopped ??= pool.stop(() => watcher?.close());
      return stopped;
    },
  };
}

/**
 * @param {object} [options]
 * @param {number} [options.port] 4010 by default; 0 picks a free port.
 * @param {string} [options.host] 127.0.0.1 by default.
 * @param {boolean} [options.dynamic] generate responses from the schemas instead of serving examples.
 * @param {string|number} [options.seed] with `dynamic`, makes the generated data repeatable.
 * @param {string} [options.proxy] the base URL of an implementation: Prism's proxy mode forwards every
 *   request there and validates requests and responses as they pass (violations go to `log`).
 * @param {boolean} [options.errors] with `proxy`: a violation fails the answer instead of being logged only.
 * @param {number} [options.maxBody] the largest request body accepted, in bytes (1 MiB).
 * @param {number} [options.maxDepth] the deepest nesting of a JSON request body (64).
 * @param {boolean} [options.watch] serve a rewritten mock document without a restart (true).
 * @param {boolean} [options.standby] keep a second worker ready to take over at once if the first dies (false).
 * @param {(line: string) => void} [options.log] where restarts, reloads and violations are told (stderr).
 * @param {number} [options.timeoutMs] how long to wait for a worker to start or reload.
 * @param {string} [options.document] another mock document (see `deriveMockDocument` in `@cloudapi/mock/derive`).
 * @param {number} [options.maxRestarts] exits within `restartWindowMs` before the mock gives up (5 in 60 s).
 * @param {number} [options.restartWindowMs] the window `maxRestarts` counts exits in (60 s).
 * @param {string | string[]} [options.corsOrigins] origins whose pages may call the mock (CORS; none by default; `npm start` adds
 *   the docs' own); `*` for any, never with credentials (the rules of `@cloudapi/spec/trust`)
 * @param {string | string[]} [options.allowedHosts] ALLOWED_HOSTS: Host names answered besides IP addresses, localhost and
 *   names under .localhost (the rules of `@cloudapi/spec/trust`)
 * @param {boolean} [options.anchor] also serve Prism's own HTTP server, without the front layer, at `prismUrl` (benchmarks).
 * @param {string} [options.faults] FAULTS: seeded latency, 429, 503 and cut connections (see @cloudapi/spec/faults).
 */
export async function startMock({
  port = 4010, host = '127.0.0.1', dynamic = false, seed, proxy, errors = false, maxBody = DEFAULT_MAX_BODY, maxDepth = DEFAULT_MAX_DEPTH,
  watch = true, standby = false, log = (line) => process.stderr.write(`${line}\n`), timeoutMs = 30_000, document = mockDocumentPath,
  maxRestarts = 5, restartWindowMs = 60_000, anchor = false, corsOrigins = [], allowedHosts = [], faults,
} = {}) {
  checkDocument(document);
  const bundle = loadBundle();
  const basePath = basePathOf(bundle);
  // A bad FAULTS setting (or an operationId the API does not have) stops the start here.
  parseFaults(faults, { operations: [...walkOperations(bundle)].map((op) => op.operation.operationId) });
  const workerOptions = workerOptionsOf({ document, dynamic, seed, proxy, errors, maxBody, maxDepth, anchor, corsOrigins, allowedHosts, faults }, basePath);
  const pool = new WorkerPool({ workerOptions, document, timeoutMs, standby, maxRestarts, restartWindowMs, log });
  await pool.start();
  const server = await listen(pool, port, host);
  pool.keepSpare();
  const watcher = watch ? await watchDocument(document, pool, log) : null;
  return mockHandle({ server, pool, watcher, host, basePath, mode: proxy ? 'proxy' : 'mock' });
}
