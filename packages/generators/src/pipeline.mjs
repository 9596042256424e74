// The whole check: every generator over the document, then its output compiled and checked
// (src/check.mjs), `parallel` generators at a time. A generator's output is compiled as soon as
// it is written, on a worker thread, so generation and compilation overlap on the two cores.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { GENERATORS, generateOne, versionOf } from './generate.mjs';

const checkWorker = new URL('./check-worker.mjs', import.meta.url);

function checkInWorker(document, generator, files, dir) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(checkWorker, { workerData: { document, generator, files, dir } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => { if (code !== 0) reject(new Error(`the check of ${generator} exited ${code}`)); });
  });
}

/**
 * @typedef {{ version: string, generateMs: number, checkMs?: number, files: string[], error?: string,
 *   errors?: string[], checked?: number, findings?: string[], missing?: string[], broken?: string[] }} GeneratorResult
 *   `files`: the TypeScript it wrote; `error`: why it made nothing; `errors`: the compiler's errors on its output
 */

/**
 * Generates with every generator (`names`, all by default) into `dir` and checks each output.
 * @param {any} document @param {string} dir
 * @returns {Promise<Record<string, GeneratorResult>>} in the order of `names`
 */
export async function checkGenerators(document, dir, { names = Object.keys(GENERATORS), parallel = Math.min(2, os.availableParallelism()) } = {}) {
  const input = path.join(dir, 'openapi.json');
  writeFileSync(input, JSON.stringify(document));
  const results = {};
  const queue = [...names];
  const lane = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const generated = await generateOne(name, input, dir);
      const base = { version: versionOf(name), generateMs: generated.ms, files: generated.files };
      if (generated.error) { results[name] = { ...base, error: generated.error }; continue; }
      const started = Date.now();
      const checked = await checkInWorker(document, name, generated.files, dir);
      results[name] = { ...base, checkMs: Date.now() - started, ...checked };
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
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
