// The pieces of the designer loop that talk to other processes: the mock picking up a new
// document, the docs build, and the bundle of the spec at HEAD that changes are compared with.
import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { BundleError, bundleAtRef, commitOf, gitLocation } from '@cloudapi/spec/bundler';

const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);

/**
 * Resolves once the mock serves the document just written. With a `reload()` on the mock's
 * handle, that; otherwise Prism's own file watch restarts it, which its log tells: the log after
 * `tail` (the end of the log before the write) says it listens again, or why it kept the old one.
 */
export async function mockServesNewDocument(mock, tail, { timeoutMs = 60_000 } = {}) {
  if (typeof mock.reload === 'function') {
    await mock.reload();
    return { ok: true };
  }
  if (typeof mock.output !== 'function') return { ok: false, reason: 'the mock\'s handle has neither reload() nor output(): cannot tell when it serves the change' };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const output = mock.output();
    const at = tail ? output.lastIndexOf(tail) : -1;
    const since = at >= 0 ? output.slice(at + tail.length) : output;
    if (/Prism is listening on/.test(since)) return { ok: true };
    if (/No operations found|Something went terribly wrong/.test(since)) {
      return { ok: false, reason: since.split('\n').find((l) => /No operations found|terribly wrong/.test(l)).trim() };
    }
    if (Date.now() > deadline) return { ok: false, reason: `the mock did not reload within ${timeoutMs / 1000} s` };
    await new Promise((resolve) => setTimeout(resolve, 25));
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
  const child = spawn(process.execPath, [docsBuildScript, '--bundle', bundleDir, '--out', outDir], {
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

/**
 * The bundle changes are compared with: the spec at `ref` (HEAD by default), bundled again
 * whenever the ref moves to another commit (a commit during the session). Outside a git
 * checkout, or when that commit's spec does not bundle, the bundle the session started from,
 * and the name says so.
 */
export function createBaseline({ specDir, ref = 'HEAD', startDocument }) {
  let where = null;
  try {
    where = gitLocation(specDir);
  } catch { /* not a git checkout */ }
  const fallback = (why) => ({ hash: null, document: startDocument, name: `the spec as this session started (${why})` });
  let current = null;

  return {
    /** { document, name, moved }: `moved` is true when the ref names another commit than last time. */
    async get() {
      if (!where) {
        current ??= fallback('not a git checkout');
        return { ...current, moved: false };
      }
      let hash;
      try {
        hash = (await execFileAsync('git', ['-C', where.repo, 'rev-parse', '--verify', `${ref}^{commit}`])).stdout.trim();
      } catch {
        current ??= fallback(`${ref} does not name a commit`);
        return { ...current, moved: false };
      }
      if (current?.hash === hash) return { ...current, moved: false };
      const moved = current !== null;
      try {
        const { subject } = commitOf(where.repo, hash);
        current = { hash, document: await bundleAtRef({ ...where, ref: hash }), name: `${ref} (${hash.slice(0, 7)} "${subject}")` };
      } catch (error) {
        if (!(error instanceof BundleError)) throw error;
        current = { ...fallback(`${ref} (${hash.slice(0, 7)}) does not bundle`), hash };
      }
      return { ...current, moved };
    },
  };
}
