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
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watch as watchFile } from 'chokidar';
import { DEFAULT_MAX_BODY } from './body.mjs';
import { basePathOf, loadBundle } from '@cloudapi/spec/bundle';
import { parseFaults } from '@cloudapi/spec/faults';
import { parseAllowedHosts, parseCorsOrigins } from '@cloudapi/spec/trust';
import { operations as walkOperations } from '@cloudapi/spec/walk';
import { NO_COUNTS, addCounts } from './verdict.mjs';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const mockDocumentPath = path.join(packageDir, 'dist', 'openapi.mock.json');
const workerPath = fileURLToPath(new URL('./worker.mjs', import.meta.url));
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

// What a connection gets when no worker could take it in time: a 503 ErrorResponse, then closed.
function unavailable(socket, reason) {
  const body = JSON.stringify({ errors: [{ reason }] });
  socket.end(`HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
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
  const mode = proxy ? 'proxy' : 'mock';
  const workerOptions = {
    document, dynamic, seed, maxBody, maxDepth, anchor, corsOrigins: parseCorsOrigins(corsOrigins), allowedHosts: parseAllowedHosts(allowedHosts), faults,
    errors: prismErrors({ dynamic, proxy, errors }),
    upstream: proxy ? upstreamOf(proxy, basePath) : undefined,
  };

  let output = '';
  const collect = (chunk) => { output = (output + chunk).slice(-200_000); };
  const totals = { ...NO_COUNTS };
  const violationLines = [];
  let stopping = false;
  let failure = null;
  let reportFailure;
  const failed = new Promise((resolve) => { reportFailure = resolve; });
  let active = null; // the worker connections go to
  let spare = null; // with `standby`: a worker ready to take over
  let restarting = null; // a worker starting to become active
  const waiting = []; // connections that came while no worker was active
  const exits = [];

  function onMessage(message) {
    if (message?.type === 'log') log(message.line);
    if (message?.type === 'exchange') {
      addCounts(totals, message.counts);
      for (const line of message.lines) {
        if (line.startsWith('✖')) violationLines.push(line);
        log(line);
      }
    }
  }

  function spawnWorker() {
    const child = fork(workerPath, [JSON.stringify(workerOptions)], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('message', onMessage);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`Prism did not start listening within ${timeoutMs} ms.\n${output.slice(-4000)}`)), timeoutMs);
      const onReady = (message) => {
        if (message?.type !== 'ready') return;
        cleanup();
        const worker = { child, prismPort: message.prismPort, handed: new Map() };
        child.on('message', (m) => { if (m?.type === 'took') took(worker, m.id); });
        worker.exited = new Promise((done) => child.on('exit', (code, signal) => { onWorkerExit(worker, code, signal); done(); }));
        resolve(worker);
      };
      const onEarlyExit = (code, signal) => fail(new Error(`Prism exited before listening (code ${code}, signal ${signal}).\n${output.slice(-4000)}`));
      function cleanup() {
        clearTimeout(timer);
        child.off('message', onReady);
        child.off('exit', onEarlyExit);
      }
      function fail(error) {
        cleanup();
        child.kill('SIGKILL');
        reject(error);
      }
      child.on('message', onReady);
      child.on('exit', onEarlyExit);
      child.on('error', fail);
    });
  }

  // A connection is sent with its handle kept open here until the worker says it took it; then
  // this copy is closed (the connection lives on in the worker). A worker that dies first never
  // read it, so it goes whole, request unread, to the next worker.
  let nextSocketId = 0;
  function handOver(worker, socket) {
    const id = ++nextSocketId;
    worker.handed.set(id, socket);
    worker.child.send({ type: 'connection', id }, socket, { keepOpen: true }, (error) => {
      if (error) rescue(worker);
    });
  }
  function took(worker, id) {
    const socket = worker.handed.get(id);
    worker.handed.delete(id);
    socket?.destroy(); // closes this process's descriptor only; the worker has its own
  }
  function rescue(worker) {
    const stranded = [...worker.handed.values()].filter((socket) => !socket.destroyed);
    worker.handed.clear();
    for (const socket of stranded) {
      if (active && active !== worker) handOver(active, socket);
      else waiting.push(socket);
    }
  }

  function activate(worker) {
    active = worker;
    while (waiting.length) handOver(worker, waiting.shift());
  }

  function keepSpare() {
    if (!standby || spare || stopping || failure) return;
    spare = { starting: true };
    spawnWorker().then((worker) => {
      if (stopping || failure) { worker.child.kill('SIGKILL'); spare = null; return; }
      spare = worker;
      log(`✔ a standby Prism (pid ${worker.child.pid}) is ready to take over.`);
    }, () => { spare = null; });
  }

  function giveUp(reason) {
    if (failure) return;
    failure = new Error(reason);
    log(`✖ ${reason}`);
    if (server.listening) server.close();
    while (waiting.length) unavailable(waiting.shift(), `The mock stopped: ${reason.split('\n')[0]}`);
    for (const worker of [active, spare]) worker?.child?.kill('SIGKILL');
    restarting?.then(() => {}, () => {});
    reportFailure(failure);
  }

  function onWorkerExit(worker, code, signal) {
    const wasActive = worker === active;
    if (wasActive) active = null;
    if (worker === spare) spare = null;
    if (stopping || failure) {
      for (const socket of worker.handed.values()) socket.destroy();
      worker.handed.clear();
      return;
    }
    rescue(worker);
    const cause = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const now = Date.now();
    exits.push(now);
    while (exits.length && now - exits[0] > restartWindowMs) exits.shift();
    if (exits.length > maxRestarts) {
      giveUp(`Prism ${cause}: ${exits.length} exits in ${Math.round(restartWindowMs / 1000)} s, more than the ${maxRestarts} restarts allowed, so the mock stops. Prism's last output:\n${output.slice(-2000)}`);
      return;
    }
    if (!wasActive) { keepSpare(); return; }
    log(`✖ Prism (pid ${worker.child.pid}) ${cause}; restarting it.`);
    if (spare?.child) {
      const next = spare;
      spare = null;
      activate(next);
      log(`✔ Prism is back (pid ${next.child.pid}) after ${((Date.now() - now) / 1000).toFixed(1)} s: the standby took over.`);
      keepSpare();
      return;
    }
    restarting = spawnWorker().then((next) => {
      restarting = null;
      if (stopping || failure) { next.child.kill('SIGKILL'); return; }
      activate(next);
      log(`✔ Prism is back (pid ${next.child.pid}) after ${((Date.now() - now) / 1000).toFixed(1)} s.`);
      keepSpare();
    }, (error) => {
      restarting = null;
      giveUp(`Prism ${cause} and could not be restarted: ${error.message}`);
    });
  }

  // Connections arrive paused; the worker reads them. With no worker active they wait (as long
  // as a start may take), then get a 503.
  const server = createServer({ pauseOnConnect: true }, (socket) => {
    socket.on('error', () => {});
    if (failure) { unavailable(socket, `The mock stopped: ${failure.message.split('\n')[0]}`); return; }
    if (active) { handOver(active, socket); return; }
    waiting.push(socket);
    setTimeout(() => {
      const at = waiting.indexOf(socket);
      if (at >= 0) { waiting.splice(at, 1); unavailable(socket, `Prism is restarting and did not take this connection within ${timeoutMs} ms.`); }
    }, timeoutMs).unref();
  });

  try {
    activate(await spawnWorker());
  } catch (error) {
    throw new Error(`Prism did not start: ${error.message}`);
  }
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => { server.off('error', reject); resolve(); });
    });
  } catch (error) {
    stopping = true;
    active.child.kill('SIGKILL');
    throw new Error(error.code === 'EADDRINUSE' ? `${host}:${port} is already in use.` : error.message);
  }
  server.on('error', (error) => giveUp(`the mock's server failed: ${error.message}`));
  keepSpare();

  // Reloads run one at a time. The worker swaps its engine and routes together once the new
  // document is loaded; until then it serves the previous one. A standby reloads too.
  let reloading = Promise.resolve();
  let reloadId = 0;
  function ask(worker, id) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { worker.child.off('message', onReply); reject(new Error(`Prism did not reload within ${timeoutMs} ms`)); }, timeoutMs);
      function onReply(message) {
        if (message?.id !== id) return;
        clearTimeout(timer);
        worker.child.off('message', onReply);
        if (message.type === 'reloaded') resolve(message); else reject(new Error(message.message));
      }
      worker.child.on('message', onReply);
      worker.child.send({ type: 'reload', id });
    });
  }
  function reload() {
    const run = reloading.then(async () => {
      const began = performance.now();
      JSON.parse(await readFile(document, 'utf8')); // a broken document fails here, before any worker is asked
      if (!active) await restarting;
      if (!active) throw failure ?? new Error('no Prism is running');
      const id = ++reloadId;
      if (spare?.child) ask(spare, id).catch(() => spare?.child?.kill('SIGKILL'));
      const reply = await ask(active, id);
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
          ({ operations, ms }) => log(`↻ mock reloaded: ${operations} operations, served ${Math.round(ms)} ms after the change was seen`),
          (error) => log(`✖ mock reload failed, still serving the previous document: ${error.message}`),
        );
      }, 25);
    });
    await new Promise((resolve) => watcher.once('ready', resolve));
  }

  const { port: boundPort } = server.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  let stopped = null;
  return {
    url,
    baseUrl: `${url}${basePath}`,
    port: boundPort,
    mode,
    /** What the worker printed, for failure messages. */
    output: () => output,
    /** Serves the mock document as it is on disk now; resolves once it is served. */
    reload,
    /** Resolves with an Error if the mock gave up (Prism kept exiting); never otherwise. */
    failed,
    /** The pid of the worker (Prism and the front layer) serving now. */
    get prismPid() { return active?.child.pid ?? null; },
    /** With `standby`: the pid of the worker ready to take over, once it is ready. */
    get standbyPid() { return spare?.child?.pid ?? null; },
    /** With `anchor`: Prism's own HTTP server, without the front layer. */
    get prismUrl() { return active?.prismPort ? `http://127.0.0.1:${active.prismPort}` : null; },
    /** Proxy mode: counts of the exchanges and of the violations so far. */
    stats: () => ({ ...totals, violations: totals.responseViolations + totals.acceptedInvalid }),
    /** Proxy mode: the violation lines logged so far. */
    violations: () => [...violationLines],
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await watcher?.close();
        // No new connection from here on. (Its callback is not awaited: it waits for every worker
        // that was ever handed a connection to confirm, and a killed one never does.)
        if (server.listening) server.close();
        while (waiting.length) waiting.shift().destroy();
        await restarting;
        const workers = [active, spare].filter((w) => w?.child && w.child.exitCode === null && w.child.signalCode === null);
        await Promise.all(workers.map(async (worker) => {
          worker.child.kill('SIGTERM');
          const timer = setTimeout(() => worker.child.kill('SIGKILL'), 5_000);
          await worker.exited;
          clearTimeout(timer);
        }));
      })();
      return stopped;
    },
  };
}
