// The parts of `npm start` that can fail on their own, each kept running by its supervisor, so
// that one part failing never stops the others:
//
// - the reference server runs in a child process (server-part.mjs): when it exits other than by
//   `stop()`, it is started again on the same port, and `npm start` says so;
// - the mock already replaces a Prism that dies (@cloudapi/mock); when it gives up (Prism kept
//   exiting), the whole mock is started again on the same port, and `npm start` says so.
//
// A part that fails more than RESTARTS times within WINDOW_MS is left stopped, said loudly; the
// others keep serving, and `npm start` exits 1 at Ctrl-C, never 0, when a part failed.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RESTARTS = 3;
const WINDOW_MS = 60_000;
const serverPart = fileURLToPath(new URL('./server-part.mjs', import.meta.url));

/** How many restarts are left: `take()` is false once a part failed too often lately. */
function restartBudget(now = Date.now) {
  const failures = [];
  return {
    take() {
      const at = now();
      failures.push(at);
      while (failures.length && at - failures[0] > WINDOW_MS) failures.shift();
      return failures.length <= RESTARTS;
    },
  };
}

/**
 * The reference server in a child process, started again when it exits unasked.
 * @param {object} options startServer()'s options (JSON-serializable)
 * @param {(line: string) => void} say
 * @returns {Promise<{ info: object, pid: () => number | null, failed: () => boolean, stop: () => Promise<void> }>}
 *   resolves once it listens; rejects with startServer's message when the first start fails
 */
export async function superviseServer(options, say) {
  const budget = restartBudget();
  let child = null;
  let stopping = false;
  let gaveUp = false;
  let info = null;

  function spawnServer(portToUse) {
    return new Promise((resolve, reject) => {
      const started = fork(serverPart, [JSON.stringify({ ...options, port: portToUse })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child = started;
      let ready = false;
      started.once('message', (message) => {
        if (message?.type !== 'ready') return reject(new Error(message?.message ?? 'the server did not start'));
        ready = true;
        resolve(message);
      });
      started.once('exit', (code, signal) => {
        if (!ready) reject(new Error(`the server exited before it listened (${signal ?? `code ${code}`})`));
        else if (started === child) onExit(started, code, signal);
      });
    });
  }

  function onExit(exited, code, signal) {
    if (stopping) return;
    const cause = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (!budget.take()) {
      gaveUp = true;
      say(`✖ the reference server (pid ${exited.pid}) ${cause}, more than ${RESTARTS} times in ${WINDOW_MS / 1000} s: it stays stopped; the docs and the mock keep serving (Ctrl-C, then look at its output above).`);
      return;
    }
    say(`✖ the reference server (pid ${exited.pid}) ${cause}; restarting it on port ${info.port}.`);
    spawnServer(info.port).then(
      (again) => say(`✔ server  ${again.baseUrl} is back (pid ${child.pid})`),
      (error) => {
        if (stopping) return;
        gaveUp = true;
        say(`✖ the reference server could not be restarted: ${error.message}; the docs and the mock keep serving.`);
      },
    );
  }

  info = await spawnServer(options.port);
  return {
    info,
    pid: () => child?.pid ?? null,
    failed: () => gaveUp,
    stop() {
      stopping = true;
      const last = child;
      if (!last || last.exitCode !== null || last.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => last.kill('SIGKILL'), 10_000);
        last.once('exit', () => { clearTimeout(timer); resolve(); });
        last.kill('SIGTERM');
      });
    },
  };
}

/**
 * The mock, started again on its port when it gives up. `handle` always reaches the mock serving
 * now (the designer loop keeps it across restarts).
 * @param {(options: object) => Promise<any>} startMock @cloudapi/mock's
 * @param {object} options its options
 * @param {(line: string) => void} say
 */
export async function superviseMock(startMock, options, say) {
  const budget = restartBudget();
  let current = await startMock(options);
  let stopping = false;
  let gaveUp = false;

  function watch(mock) {
    mock.failed.then(async (error) => {
      if (stopping || mock !== current) return;
      if (!budget.take()) {
        gaveUp = true;
        say(`✖ the mock stopped (${error.message.split('\n')[0]}) more than ${RESTARTS} times in ${WINDOW_MS / 1000} s: it stays stopped; the docs and the server keep serving.`);
        return;
      }
      say(`✖ the mock stopped: ${error.message.split('\n')[0]}; restarting it on port ${mock.port}.`);
      await mock.stop().catch(() => {});
      try {
        current = await startMock({ ...options, port: mock.port });
        say(`✔ mock  ${current.baseUrl} is back`);
        watch(current);
      } catch (restartError) {
        gaveUp = true;
        say(`✖ the mock could not be restarted: ${restartError.message}`);
      }
    });
  }
  watch(current);

  return {
    handle: {
      get url() { return current.url; },
      get baseUrl() { return current.baseUrl; },
      get port() { return current.port; },
      get prismPid() { return current.prismPid; },
      reload: () => current.reload(),
      output: () => current.output(),
    },
    failed: () => gaveUp,
    stop() {
      stopping = true;
      return current.stop();
    },
  };
}
