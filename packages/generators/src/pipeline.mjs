// The whole check: every generator over the document, then its output compiled and checked
// (src/check.mjs), `parallel` generators at a time. A generator's output is compiled as soon as
// it is written, on its lane's worker thread, so generation and compilation overlap on the two
// cores, and each thread parses the standard library once. Each lane generates in its own
// generators' host (src/generate.mjs), which keeps the libraries it loaded. Several checks in one
// process (a test file's documents) can share the threads and the hosts through startCheckers(),
// so each parses the standard library and loads a generator once in all.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { GENERATORS, startGeneratorHost, versionOf } from './generate.mjs';

const checkWorker = new URL('./check-worker.mjs', import.meta.url);

/**
 * A worker thread of src/check-worker.mjs; `check` sends it one output at a time, queueing calls
 * that come while it is busy (the thread answers its messages in order, one by one).
 */
function startChecker() {
  const worker = new Worker(checkWorker);
  let failure = null;
  let last = Promise.resolve();
  worker.on('error', (error) => { failure = error; });
  const send = (document, generator, files, dir) => new Promise((resolve, reject) => {
    if (failure) { reject(failure); return; }
    const onExit = (code) => reject(failure ?? new Error(`the check of ${generator} exited ${code}`));
    worker.once('exit', onExit);
    worker.once('message', (message) => {
      worker.off('exit', onExit);
      if (message.error) reject(new Error(`the check of ${generator} failed: ${message.error}`));
      else resolve(message.result);
    });
    worker.postMessage({ document, generator, files, dir });
  });
  const check = (...args) => {
    const result = last.then(() => send(...args));
    last = result.catch(() => {});
    return result;
  };
  return { check, stop: () => worker.terminate() };
}

/**
 * `count` checker threads and as many generators' hosts to pass to several checkGenerators()
 * calls (`checkers`, `hosts`), so that each thread loads TypeScript and parses the standard
 * library once for all of them, and each host loads a generator once; `stop()` ends them.
 */
export function startCheckers(count = Math.min(2, os.availableParallelism())) {
  const checkers = Array.from({ length: count }, startChecker);
  const hosts = Array.from({ length: count }, startGeneratorHost);
  return { checkers, hosts, stop: () => Promise.all([...checkers.map((checker) => checker.stop()), ...hosts.map((host) => host.stop())]) };
}

/**
 * @typedef {{ version: string, generateMs: number, checkMs?: number, files: string[], error?: string,
 *   errors?: string[], checked?: number, findings?: string[], missing?: string[], broken?: string[] }} GeneratorResult
 *   `files`: the TypeScript it wrote; `error`: why it made nothing; `errors`: the compiler's errors on its output
 */

/**
 * Generates with every generator (`names`, all by default) into `dir` and checks each output.
 * `checkers` and `hosts` (from startCheckers(), left running) replace the threads and hosts it
 * would start and stop itself; lane i checks on checkers[i % checkers.length] and generates in
 * hosts[i % hosts.length].
 * @param {any} document @param {string} dir
 * @returns {Promise<Record<string, GeneratorResult>>} in the order of `names`
 */
export async function checkGenerators(document, dir, { names = Object.keys(GENERATORS), parallel = Math.min(2, os.availableParallelism()), checkers, hosts } = {}) {
  const input = path.join(dir, 'openapi.json');
  writeFileSync(input, JSON.stringify(document));
  const results = {};
  const queue = [...names];
  // Each lane runs its generators one after the other, checking each output on its own thread.
  const lane = async (index) => {
    const checker = checkers ? checkers[index % checkers.length] : startChecker();
    const host = hosts ? hosts[index % hosts.length] : startGeneratorHost();
    try {
      for (let name = queue.shift(); name; name = queue.shift()) {
        const generated = await host.generate(name, input, dir);
        const base = { version: versionOf(name), generateMs: generated.ms, files: generated.files };
        if (generated.error) { results[name] = { ...base, error: generated.error }; continue; }
        const started = Date.now();
        const checked = await checker.check(document, name, generated.files, dir);
        results[name] = { ...base, checkMs: Date.now() - started, ...checked };
      }
    } finally {
      if (!checkers) await checker.stop();
      if (!hosts) host.stop();
    }
  };
  await Promise.all(Array.from({ length: parallel }, (_, index) => lane(index)));
  return Object.fromEntries(names.map((name) => [name, results[name]]));
}

/** One line per generator: its version and its result, for the test's output. @param {Record<string, GeneratorResult>} results */
export function summary(results) {
  return Object.entries(results).map(([name, r]) => {
    const outcome = r.error ? `FAILED to generate: ${r.error.split('\n')[0]}`
      : r.errors.length ? `${r.errors.length} compile error(s), first: ${r.errors[0].split('\n')[0]}`
      : r.findings ? `compiles (strict); ${r.checked} bodies, answers and parameters checked, ${r.findings.length} lost`
      : 'compiles (strict)';
    return `${name} ${r.version}: ${outcome} (generated in ${r.generateMs} ms${r.checkMs === undefined ? '' : `, compiled in ${r.checkMs} ms`})`;
  });
}
