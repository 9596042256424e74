// Starts and stops the mock: the front layer (front.mjs) on the public address, in this process,
// and Prism (worker.mjs) in a supervised child process on an ephemeral loopback port.
//
// - `startMock()` resolves once both answer, never after a fixed sleep.
// - If Prism exits or is killed, it is restarted (said on the log) and requests wait for it; after
//   too many exits in a row the mock gives up: `failed` resolves with the cause, and the bin
//   exits 1 with it. A crash is never a clean exit.
// - The mock document is watched: a rewritten file (the build renames a new one into place) is
//   served without a restart; `reload()` does the same on demand and resolves once it is served.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watch as watchFile } from 'chokidar';
import { basePathOf } from './derive.mjs';
import { describeViolation, significant } from './errors.mjs';
import { createFrontServer } from './front.mjs';
import { createRoutes } from './routes.mjs';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const mockDocumentPath = path.join(packageDir, 'dist', 'openapi.mock.json');
const workerPath = fileURLToPath(new URL('./worker.mjs', import.meta.url));
export const DEFAULT_MAX_BODY = 1024 * 1024;
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

function loadDocument(file) {
  if (typeof file !== 'string') throw new Error('document must be the path of a mock document (see deriveMockDocument in @cloudapi/mock/derive).');
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
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
 * @param {(line: string) => void} [options.log] where restarts, reloads and violations are told (stderr).
 * @param {number} [options.timeoutMs] how long to wait for Prism to listen.
 * @param {string} [options.document] another mock document (see `deriveMockDocument` in `@cloudapi/mock/derive`).
 */
export async function startMock({
  port = 4010, host = '127.0.0.1', dynamic = false, seed, proxy, errors = false, maxBody = DEFAULT_MAX_BODY, maxDepth = DEFAULT_MAX_DEPTH,
  watch = true, log = (line) => process.stderr.write(`${line}\n`), timeoutMs = 30_000, document = mockDocumentPath,
  maxRestarts = 5, restartWindowMs = 60_000,
} = {}) {
  const mode = proxy ? 'proxy' : 'mock';
  const initial = loadDocument(document);
  const basePath = basePathOf(JSON.parse(readFileSync(resolveBundle(), 'utf8')));
  let upstreamUrl;
  if (proxy) {
    try { upstreamUrl = new URL(proxy); } catch { throw new Error(`--proxy "${proxy}" is not a URL, e.g. http://127.0.0.1:4020/v4.`); }
    if (!/^https?:$/.test(upstreamUrl.protocol)) throw new Error(`--proxy "${proxy}" must be an http or https URL.`);
    // The mock document's paths carry the base path (/v4/...), so Prism forwards to the root.
    const trimmed = upstreamUrl.pathname.replace(/\/+$/, '');
    if (basePath && trimmed.endsWith(basePath)) upstreamUrl.pathname = trimmed.slice(0, -basePath.length) || '/';
  }
  const workerOptions = { document, dynamic, seed, errors: prismErrors({ dynamic, proxy, errors }), upstream: upstreamUrl?.href };

  let output = '';
  const collect = (chunk) => { output = (output + chunk).slice(-200_000); };
  let stopping = false;
  let failure = null;
  let reportFailure;
  const failed = new Promise((resolve) => { reportFailure = resolve; });
  let routes = createRoutes(initial);
  let prism = null; // {child, port, agent}
  let pending = null; // a restart under way
  const exits = [];

  function spawnPrism() {
    const child = fork(workerPath, [JSON.stringify(workerOptions)], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`Prism did not start listening within ${timeoutMs} ms.\n${output.slice(-4000)}`)), timeoutMs);
      const onMessage = (message) => {
        if (message?.type !== 'listening') return;
        cleanup();
        const started = { child, port: message.port, agent: new http.Agent({ keepAlive: true, maxSockets: 256 }) };
        started.exited = new Promise((resolve) => child.on('exit', (code, signal) => { onPrismExit(started, code, signal); resolve(); }));
        resolve(started);
      };
      const onExit = (code, signal) => fail(new Error(`Prism exited before listening (code ${code}, signal ${signal}).\n${output.slice(-4000)}`));
      function cleanup() {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      }
      function fail(error) {
        cleanup();
        child.kill('SIGKILL');
        reject(error);
      }
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', (error) => fail(error));
    });
  }

  function giveUp(reason) {
    if (failure) return;
    failure = new Error(reason);
    log(`✖ ${reason}`);
    reportFailure(failure);
  }

  function onPrismExit(which, code, signal) {
    which.agent.destroy();
    if (stopping || which !== prism) return;
    prism = null;
    const cause = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const now = Date.now();
    exits.push(now);
    while (exits.length && now - exits[0] > restartWindowMs) exits.shift();
    if (exits.length > maxRestarts) {
      giveUp(`Prism ${cause}: ${exits.length} exits in ${Math.round(restartWindowMs / 1000)} s, more than the ${maxRestarts} restarts allowed, so the mock stops. Prism's last output:\n${output.slice(-2000)}`);
      return;
    }
    log(`✖ Prism (pid ${which.child.pid}) ${cause}; restarting it.`);
    pending = (async () => {
      try {
        const restarted = await spawnPrism();
        if (stopping) { restarted.child.kill('SIGKILL'); return null; }
        try { routes = createRoutes(loadDocument(document)); } catch { /* keep the routes served so far */ }
        prism = restarted;
        log(`✔ Prism is back (pid ${restarted.child.pid}) after ${((Date.now() - now) / 1000).toFixed(1)} s.`);
        return restarted;
      } catch (error) {
        giveUp(`Prism ${cause} and could not be restarted: ${error.message}`);
        return null;
      } finally {
        pending = null;
      }
    })();
  }

  /**
   * Prism's address; waits for a restart under way. `failed` is the Prism a request just failed
   * on: its exit may not have been seen yet, so it gets a moment to show whether it died.
   */
  async function upstream(failed) {
    if (failed && prism === failed) await Promise.race([failed.exited, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    if (prism) return prism;
    if (failure) throw failure;
    const restarted = await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, timeoutMs, null))]);
    if (restarted) return restarted;
    throw failure ?? new Error(`Prism is restarting and did not answer within ${timeoutMs} ms`);
  }

  // Counts of what passed, and in proxy mode one log line per violation.
  const stats = { exchanges: 0, responseViolations: 0, acceptedInvalid: 0, refusedInvalid: 0, unanswered: 0 };
  const violationLines = [];
  function onExchange({ op, method, path: url, status, violations, problem }) {
    stats.exchanges++;
    if (mode !== 'proxy') return;
    const label = op ? `${op.operationId} (${method} ${op.template})` : `${method} ${url.split('?')[0]}`;
    if (problem && status >= 500 && !violations.length) stats.unanswered++;
    const said = (v) => describeViolation(v, op?.parameters);
    let refused = false;
    for (const v of [...significant(violations.filter((w) => w.location?.[0] === 'response')), ...significant(violations.filter((w) => w.location?.[0] !== 'response'))]) {
      if (v.severity !== 'Error') { log(`⚠ ${label} → ${status}: ${said(v)}`); continue; }
      let line;
      if (v.location?.[0] === 'response') {
        stats.responseViolations++;
        line = `✖ ${label} → ${status}: ${said(v)}`;
      } else if (status < 400) {
        stats.acceptedInvalid++;
        line = `✖ ${label} → ${status}: accepted an invalid request, ${said(v)}`;
      } else {
        // The client broke the contract and the implementation said so: as it should be.
        refused = true;
        continue;
      }
      violationLines.push(line);
      log(line);
    }
    if (refused) stats.refusedInvalid++;
  }

  try {
    prism = await spawnPrism();
  } catch (error) {
    throw new Error(`Prism did not start: ${error.message}`);
  }
  const front = createFrontServer({ mode, current: () => ({ routes }), upstream, maxBody, maxDepth, onExchange, log });
  try {
    await new Promise((resolve, reject) => {
      front.once('error', reject);
      front.listen(port, host, () => { front.off('error', reject); resolve(); });
    });
  } catch (error) {
    stopping = true;
    prism.child.kill('SIGKILL');
    throw new Error(error.code === 'EADDRINUSE' ? `${host}:${port} is already in use.` : error.message);
  }
  front.on('error', (error) => giveUp(`the mock's server failed: ${error.message}`));
  failed.then(() => { front.close(); front.closeAllConnections(); prism?.child.kill('SIGKILL'); });

  // Reloads run one at a time; the front layer switches to the new routes and the new Prism
  // server together, once Prism serves the rewritten document.
  let reloading = Promise.resolve();
  let reloadId = 0;
  function reload() {
    const run = reloading.then(async () => {
      const began = performance.now();
      const nextRoutes = createRoutes(JSON.parse(await readFile(document, 'utf8')));
      const current = await upstream();
      const id = ++reloadId;
      const reply = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => { current.child.off('message', onMessage); reject(new Error(`Prism did not reload within ${timeoutMs} ms`)); }, timeoutMs);
        function onMessage(message) {
          if (message?.id !== id) return;
          clearTimeout(timer);
          current.child.off('message', onMessage);
          if (message.type === 'reloaded') resolve(message); else reject(new Error(message.message));
        }
        current.child.on('message', onMessage);
        current.child.send({ type: 'reload', id });
      });
      const previousAgent = current.agent;
      current.port = reply.port;
      current.agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
      setTimeout(() => previousAgent.destroy(), 2_000).unref();
      routes = nextRoutes;
      return { operations: reply.operations, ms: performance.now() - began };
    });
    reloading = run.catch(() => {});
    return run;
  }

  let watcher = null;
  if (watch) {
    let timer = null;
    watcher = watchFile(document, { ignoreInitial: true, atomic: true });
    watcher.on('all', (event) => {
      if (event !== 'add' && event !== 'change') return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        reload().then(
          ({ operations, ms }) => log(`↻ mock reloaded: ${operations} operations, served ${Math.round(ms)} ms after the document changed`),
          (error) => log(`✖ mock reload failed, still serving the previous document: ${error.message}`),
        );
      }, 25);
    });
    await new Promise((resolve) => watcher.once('ready', resolve));
  }

  const { port: boundPort } = front.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  let stopped = null;
  return {
    url,
    baseUrl: `${url}${basePath}`,
    port: boundPort,
    mode,
    /** What Prism printed, for failure messages. */
    output: () => output,
    /** Serves the mock document as it is on disk now; resolves once it is served. */
    reload,
    /** Resolves with an Error if the mock gave up (Prism kept exiting); never otherwise. */
    failed,
    /** Prism's own address, without the front layer (benchmarks compare the two). */
    get prismUrl() { return prism ? `http://127.0.0.1:${prism.port}` : null; },
    /** The pid of the Prism process serving now. */
    get prismPid() { return prism?.child.pid ?? null; },
    /** Counts of the exchanges so far; in proxy mode, of the violations. */
    stats: () => ({ ...stats, violations: stats.responseViolations + stats.acceptedInvalid }),
    /** The violation lines logged so far (proxy mode). */
    violations: () => [...violationLines],
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await watcher?.close();
        front.closeAllConnections();
        await new Promise((resolve) => front.close(() => resolve()));
        const child = prism?.child ?? (await pending)?.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopped;
    },
  };
}

function resolveBundle() {
  return createRequire(import.meta.url).resolve('@cloudapi/spec/openapi.json');
}
