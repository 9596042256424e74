// The stages of the designer loop that talk to other processes: the mock picking up a new
// document, and the docs build.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Resolves once the mock serves the document `write()` just wrote. With a `reload()` on the
 * mock's handle, that; otherwise Prism's own file watch restarts it, which its log tells: the log
 * after `tail` (its end before the write) says it listens again, or why it kept the old document.
 * Prism's watch now and then misses a rename (it restarts for one save, not the next); after
 * `nudgeMs` without a restart the document is written again, once.
 */
export async function mockServesNewDocument(mock, tail, write, { timeoutMs = 40_000, nudgeMs = 8_000 } = {}) {
  if (typeof mock.reload === 'function') {
    await mock.reload();
    return { ok: true };
  }
  if (typeof mock.output !== 'function') return { ok: false, reason: 'the mock\'s handle has neither reload() nor output(): cannot tell when it serves the change' };
  const started = Date.now();
  let nudged = false;
  for (;;) {
    const output = mock.output();
    const at = tail ? output.lastIndexOf(tail) : -1;
    const since = at >= 0 ? output.slice(at + tail.length) : output;
    if (/Prism is listening on/.test(since)) return { ok: true };
    if (/No operations found|Something went terribly wrong/.test(since)) {
      return { ok: false, reason: since.split('\n').find((l) => /No operations found|terribly wrong/.test(l)).trim() };
    }
    if (!nudged && !/Restarting Prism/.test(since) && Date.now() - started > nudgeMs) {
      nudged = true;
      write();
    }
    if (Date.now() - started > timeoutMs) return { ok: false, reason: `the mock did not reload within ${timeoutMs / 1000} s` };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The last characters of the mock's log: what mockServesNewDocument() reads after. */
export const logTail = (mock) => (typeof mock.output === 'function' ? mock.output().slice(-400) : '');

const docsBuildScript = path.join(path.dirname(require.resolve('@cloudapi/docs/package.json')), 'scripts', 'build.mjs');

/**
 * Builds the docs site from the bundle in `bundleDir` into `outDir` with the docs package's own
 * build (Redoc through Redocly's CLI). Returns { done: Promise<{ code, output }>, stop() }.
 */
export function buildDocs({ bundleDir, outDir }) {
  // The page only: the 3.0 edition and the Postman collection of the docs wait for `npm run build`.
  const child = spawn(process.execPath, [docsBuildScript, '--bundle', bundleDir, '--out', outDir, '--page-only'], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const done = new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: -1, output: error.message }));
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, output: output.trim() }));
  });
  return { done, stop: () => child.kill('SIGTERM') };
}
