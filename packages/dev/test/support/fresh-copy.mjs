// A fresh copy of the repository for a test that runs `npm run dev` itself: the files git knows
// (tracked, edited or new, ignored ones left out, so what is under test is what is copied), the
// build outputs `npm start --no-build` serves, and node_modules linked to this checkout's, with the
// workspace's own packages pointing into the copy. Whatever the dev loop writes (spec/dist, the
// docs page, the mock's document) lands in the copy, never in this checkout.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const WORKSPACE_SCOPE = '@cloudapi';

/** The folders holding what `npm run build` makes: spec/dist and each package's dist. */
function builtFolders() {
  const packages = readdirSync(path.join(repoRoot, 'packages')).map((name) => `packages/${name}/dist`);
  return ['spec/dist', ...packages].filter((dir) => existsSync(path.join(repoRoot, dir)));
}

/**
 * node_modules of the copy: the root one a folder of links to this checkout's entries, but its
 * workspace scope copied as the relative links npm made (so @cloudapi/x is the copy's packages/x);
 * a package's own node_modules (third-party only) linked whole.
 */
function linkNodeModules(copy) {
  const root = path.join(repoRoot, 'node_modules');
  mkdirSync(path.join(copy, 'node_modules'));
  for (const entry of readdirSync(root)) {
    if (entry === WORKSPACE_SCOPE) cpSync(path.join(root, entry), path.join(copy, 'node_modules', entry), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(path.join(root, entry), path.join(copy, 'node_modules', entry));
  }
  const own = ['spec', ...readdirSync(path.join(repoRoot, 'packages')).map((name) => `packages/${name}`)];
  for (const dir of own) {
    const modules = path.join(repoRoot, dir, 'node_modules');
    if (existsSync(modules) && existsSync(path.join(copy, dir))) symlinkSync(modules, path.join(copy, dir, 'node_modules'));
  }
}

/** Copies this checkout into `copy` (which must not exist): sources, build outputs, links to node_modules. */
export function copyRepository(copy) {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  for (const file of new Set(listed.split('\0').filter(Boolean))) {
    const from = path.join(repoRoot, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    copyFileSync(from, path.join(copy, file));
  }
  for (const dir of builtFolders()) cpSync(path.join(repoRoot, dir), path.join(copy, dir), { recursive: true });
  linkNodeModules(copy);
}

/**
 * Starts `npm run dev -- --no-build` in `cwd`, in a process group of its own. Resolves once the
 * designer loop watches, with the docs' and the mock's addresses read from its output.
 * @returns {Promise<{ docsUrl: string, mockUrl: string, output: () => string, stop: () => Promise<{ code: number|null, signal: string|null }> }>}
 *   stop() ends the whole group and resolves with how npm exited
 */
export function startDev(cwd, env, { timeoutMs = 120_000 } = {}) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['run', 'dev', '--', '--no-build'], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  // Ctrl-C: SIGINT to the whole group, as a terminal sends it; then wait until none of the group is
  // left (npm may exit before the servers it started have stopped); SIGKILL after 15 s.
  const signalGroup = (signal) => {
    try { process.kill(-child.pid, signal); return true; } catch { return false; } // ESRCH: none left
  };
  const stop = async () => {
    signalGroup('SIGINT');
    const killAt = Date.now() + 15_000;
    while (signalGroup(0)) {
      if (Date.now() > killAt) signalGroup('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return exited;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = async (why, started) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (started) return resolve({ ...started, output: () => text, stop });
      await stop();
      reject(new Error(`npm run dev ${why}:\n${text}`));
    };
    const timer = setTimeout(() => settle(`did not start watching within ${timeoutMs} ms`), timeoutMs);
    const read = (chunk) => {
      text += chunk;
      if (settled || !/^Watching /m.test(text)) return;
      const docsUrl = /✔ docs\s+(\S+)/.exec(text)?.[1];
      const mockUrl = /✔ mock\s+(\S+)/.exec(text)?.[1];
      settle('printed no docs or mock address', docsUrl && mockUrl && { docsUrl, mockUrl });
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    exited.then(({ code, signal }) => settle(`exited (${signal ?? code}) before watching`));
  });
}
