// The supervisor's workers (startMock's process, index.mjs): the worker connections go to, the
// standby kept ready, the restarts, and the connections handed over. A connection is handed to the
// active worker with its handle kept open here until the worker says it took it; a worker that
// dies first never read it, so it goes whole, request unread, to the next worker. Too many exits
// in a row and the pool gives up: `failed` resolves with the cause and every waiting connection
// gets a 503.
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { countHanded, operationsFor, remember } from './operations-cache.mjs';
import { NO_COUNTS, addCounts } from './verdict.mjs';

const workerPath = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** What a connection gets when no worker could take it in time: a 503 ErrorResponse, then closed. */
export function unavailable(socket, reason) {
  const body = JSON.stringify({ errors: [{ reason }] });
  socket.end(`HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/**
 * @typedef {object} PoolSettings
 * @property {object} workerOptions what each worker is started with (worker.mjs reads them)
 * @property {string} document the mock document, read again on reload
 * @property {number} timeoutMs how long a worker may take to start or reload
 * @property {boolean} standby keep a second worker ready to take over
 * @property {number} maxRestarts exits within `restartWindowMs` before the pool gives up
 * @property {number} restartWindowMs
 * @property {(line: string) => void} log
 */

export class WorkerPool {
  /** @param {PoolSettings} settings */
  constructor(settings) {
    this.settings = settings;
    /** What the workers printed, kept for failure messages. */
    this.output = '';
    /** Proxy mode: counts of the exchanges, and the violation lines logged. */
    this.totals = { ...NO_COUNTS };
    /** @type {string[]} */
    this.violationLines = [];
    this.stopping = false;
    /** @type {Error | null} */
    this.failure = null;
    /** @type {(error: Error) => void} */
    this.reportFailure = () => {};
    /** @type {Promise<Error>} resolves if the pool gives up; never otherwise */
    this.failed = new Promise((resolve) => { this.reportFailure = resolve; });
    /** @type {any} the worker connections go to */
    this.active = null;
    /** @type {any} with `standby`: a worker ready to take over (`{ starting: true }` while it starts) */
    this.spare = null;
    /** @type {Promise<void> | null} a worker starting to become active */
    this.restarting = null;
    /** @type {import('node:net').Socket[]} connections that came while no worker was active */
    this.waiting = [];
    /** @type {number[]} times of the recent exits */
    this.exits = [];
    this.nextSocketId = 0;
    this.reloading = Promise.resolve();
    this.reloadId = 0;
    /** @type {import('node:net').Server | null} the public server, closed when the pool gives up */
    this.server = null;
  }

  /** Starts the first worker and makes it active. */
  async start() {
    try {
      this.activate(await this.spawn());
    } catch (error) {
      throw new Error(`Prism did not start: ${error.message}`);
    }
  }

  /** Stops the first worker when the mock cannot listen after all. */
  abandon() {
    this.stopping = true;
    this.active?.child.kill('SIGKILL');
  }

  /** @param {string | Buffer} chunk */
  collect(chunk) {
    this.output = (this.output + chunk).slice(-200_000);
  }

  onMessage(message) {
    if (message?.type === 'operations') remember(message.key, message.json);
    if (message?.type === 'operations-used') countHanded();
    if (message?.type === 'log') this.settings.log(message.line);
    if (message?.type === 'exchange') {
      addCounts(this.totals, message.counts);
      for (const line of message.lines) {
        if (line.startsWith('✖')) this.violationLines.push(line);
        this.settings.log(line);
      }
    }
  }

  /** A new worker, resolved once it says it is ready; it is killed if it does not within the timeout. */
  spawn() {
    const { timeoutMs, workerOptions } = this.settings;
    // Prism's operations of the document, when a worker of this process made them already.
    const operations = operationsFor(workerOptions.document);
    const child = fork(workerPath, [JSON.stringify({ ...workerOptions, operationsKey: operations?.key })], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
    if (operations) child.send({ type: 'operations', ...operations });
    child.stdout.on('data', (chunk) => this.collect(chunk));
    child.stderr.on('data', (chunk) => this.collect(chunk));
    child.on('message', (message) => this.onMessage(message));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`Prism did not start listening within ${timeoutMs} ms.\n${this.output.slice(-4000)}`)), timeoutMs);
      const onReady = (message) => {
        if (message?.type !== 'ready') return;
        cleanup();
        const worker = { child, prismPort: message.prismPort, handed: new Map() };
        child.on('message', (m) => { if (m?.type === 'took') this.took(worker, m.id); });
        worker.exited = new Promise((done) => child.on('exit', (code, signal) => { this.onWorkerExit(worker, code, signal); done(); }));
        resolve(worker);
      };
      const onEarlyExit = (code, signal) => fail(new Error(`Prism exited before listening (code ${code}, signal ${signal}).\n${this.output.slice(-4000)}`));
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

  /**
   * A connection accepted by the public server (paused: the worker reads it). With no worker active
   * it waits as long as a start may take, then gets a 503.
   * @param {import('node:net').Socket} socket
   */
  accept(socket) {
    socket.on('error', () => {});
    if (this.failure) { unavailable(socket, `The mock stopped: ${this.failure.message.split('\n')[0]}`); return; }
    if (this.active) { this.handOver(this.active, socket); return; }
    this.waiting.push(socket);
    setTimeout(() => {
      const at = this.waiting.indexOf(socket);
      if (at >= 0) { this.waiting.splice(at, 1); unavailable(socket, `Prism is restarting and did not take this connection within ${this.settings.timeoutMs} ms.`); }
    }, this.settings.timeoutMs).unref();
  }

  handOver(worker, socket) {
    const id = ++this.nextSocketId;
    worker.handed.set(id, socket);
    worker.child.send({ type: 'connection', id }, socket, { keepOpen: true }, (error) => {
      if (error) this.rescue(worker);
    });
  }

  took(worker, id) {
    const socket = worker.handed.get(id);
    worker.handed.delete(id);
    socket?.destroy(); // closes this process's descriptor only; the worker has its own
  }

  /** The connections a worker was handed and never took go to the active worker, or wait for one. */
  rescue(worker) {
    const stranded = [...worker.handed.values()].filter((socket) => !socket.destroyed);
    worker.handed.clear();
    for (const socket of stranded) {
      if (this.active && this.active !== worker) this.handOver(this.active, socket);
      else this.waiting.push(socket);
    }
  }

  activate(worker) {
    this.active = worker;
    while (this.waiting.length) this.handOver(worker, this.waiting.shift());
  }

  keepSpare() {
    if (!this.settings.standby || this.spare || this.stopping || this.failure) return;
    this.spare = { starting: true };
    this.spawn().then((worker) => {
      if (this.stopping || this.failure) { worker.child.kill('SIGKILL'); this.spare = null; return; }
      this.spare = worker;
      this.settings.log(`✔ a standby Prism (pid ${worker.child.pid}) is ready to take over.`);
    }, () => { this.spare = null; });
  }

  /** @param {string} reason */
  giveUp(reason) {
    if (this.failure) return;
    this.failure = new Error(reason);
    this.settings.log(`✖ ${reason}`);
    if (this.server?.listening) this.server.close();
    while (this.waiting.length) unavailable(this.waiting.shift(), `The mock stopped: ${reason.split('\n')[0]}`);
    for (const worker of [this.active, this.spare]) worker?.child?.kill('SIGKILL');
    this.restarting?.then(() => {}, () => {});
    this.reportFailure(this.failure);
  }

  onWorkerExit(worker, code, signal) {
    const wasActive = worker === this.active;
    if (wasActive) this.active = null;
    if (worker === this.spare) this.spare = null;
    if (this.stopping || this.failure) {
      for (const socket of worker.handed.values()) socket.destroy();
      worker.handed.clear();
      return;
    }
    this.rescue(worker);
    const cause = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (this.tooManyExits(cause)) return;
    if (!wasActive) { this.keepSpare(); return; }
    this.settings.log(`✖ Prism (pid ${worker.child.pid}) ${cause}; restarting it.`);
    this.replaceActive(cause, Date.now());
  }

  /** Counts an exit; true (and the pool gives up) when there were more than `maxRestarts` in the window. */
  tooManyExits(cause) {
    const { maxRestarts, restartWindowMs } = this.settings;
    const now = Date.now();
    this.exits.push(now);
    while (this.exits.length && now - this.exits[0] > restartWindowMs) this.exits.shift();
    if (this.exits.length <= maxRestarts) return false;
    this.giveUp(`Prism ${cause}: ${this.exits.length} exits in ${Math.round(restartWindowMs / 1000)} s, more than the ${maxRestarts} restarts allowed, so the mock stops. Prism's last output:\n${this.output.slice(-2000)}`);
    return true;
  }

  /** The standby takes over at once; without one, a new worker is started. */
  replaceActive(cause, since) {
    const back = (next, how) => this.settings.log(`✔ Prism is back (pid ${next.child.pid}) after ${((Date.now() - since) / 1000).toFixed(1)} s${how}.`);
    if (this.spare?.child) {
      const next = this.spare;
      this.spare = null;
      this.activate(next);
      back(next, ': the standby took over');
      this.keepSpare();
      return;
    }
    this.restarting = this.spawn().then((next) => {
      this.restarting = null;
      if (this.stopping || this.failure) { next.child.kill('SIGKILL'); return; }
      this.activate(next);
      back(next, '');
      this.keepSpare();
    }, (error) => {
      this.restarting = null;
      this.giveUp(`Prism ${cause} and could not be restarted: ${error.message}`);
    });
  }

  /**
   * Serves the mock document as it is on disk now; resolves once it is served. Reloads run one at
   * a time: the worker swaps its engine and routes together once the new document is loaded (until
   * then it serves the previous one). A standby reloads too.
   * @returns {Promise<{ operations: number, ms: number }>}
   */
  reload() {
    const run = this.reloading.then(async () => {
      const began = performance.now();
      JSON.parse(await readFile(this.settings.document, 'utf8')); // a broken document fails here, before any worker is asked
      if (!this.active) await this.restarting;
      if (!this.active) throw this.failure ?? new Error('no Prism is running');
      const id = ++this.reloadId;
      if (this.spare?.child) this.ask(this.spare, id).catch(() => this.spare?.child?.kill('SIGKILL'));
      const reply = await this.ask(this.active, id);
      return { operations: reply.operations, ms: performance.now() - began };
    });
    this.reloading = run.catch(() => {});
    return run;
  }

  ask(worker, id) {
    const { timeoutMs } = this.settings;
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

  /**
   * Stops taking connections and stops the workers (SIGTERM, then SIGKILL after 5 s). `before` runs
   * first, once the pool knows it is stopping.
   * @param {() => Promise<unknown> | unknown} [before]
   */
  async stop(before) {
    this.stopping = true;
    await before?.();
    // No new connection from here on. (Its callback is not awaited: it waits for every worker
    // that was ever handed a connection to confirm, and a killed one never does.)
    if (this.server?.listening) this.server.close();
    while (this.waiting.length) this.waiting.shift().destroy();
    await this.restarting;
    const workers = [this.active, this.spare].filter((w) => w?.child && w.child.exitCode === null && w.child.signalCode === null);
    await Promise.all(workers.map(async (worker) => {
      worker.child.kill('SIGTERM');
      const timer = setTimeout(() => worker.child.kill('SIGKILL'), 5_000);
      await worker.exited;
      clearTimeout(timer);
    }));
  }
}
