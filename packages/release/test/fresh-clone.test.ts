// Every command of the README's tables works on a fresh clone, where nothing is built: each runs
// in a clone of this checkout (the working tree's tracked changes included, through
// `git stash create`) after `git clean` removed every build output, with node_modules linked in as
// `npm install` would have left them. Turbo's cache is this checkout's, so a command whose build
// runs first restores what it needs in seconds; a command that loads a build output before its
// build has run fails here, as it would for a new user. `npm start` itself is checked end to end
// by scripts/first-start.mjs, which .ci/run calls on CI's own fresh clone.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allWorkspaces, cleanEnv, describeRun, removeTree, repoRoot, run, runGroup } from './support/npm.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let scratch = '';
let clone = '';
let turboCache = '';

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-fresh-clone-'));
  clone = path.join(scratch, 'repo');
  // Turbo keeps one cache for a repository and its worktrees, beside the main worktree. The clone
  // gets a linked copy of it: a cache hit rewrites the entry's record of its files (their dates in
  // the clone), and the next Turbo run of this checkout would then restore those outputs again,
  // under the tests running beside this one.
  const common = (await run('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoRoot })).stdout.trim();
  const checkoutCache = path.join(path.dirname(common), '.turbo', 'cache');
  turboCache = path.join(scratch, 'turbo-cache');
  // The links are made side by side, the cache's while git clones.
  const linkingCache = existsSync(checkoutCache) ? linkOrCopy(checkoutCache, turboCache) : Promise.resolve();
  const stash = await run('git', ['stash', 'create'], { cwd: repoRoot });
  const commit = stash.stdout.trim() || 'HEAD';
  const cloned = await run('git', ['clone', '--quiet', '--no-checkout', repoRoot, clone], { cwd: scratch });
  if (cloned.code !== 0) throw new Error(describeRun('git clone', cloned));
  // A stash commit is not on a branch: fetch it by its id into the clone.
  const fetched = await run('git', ['fetch', '--quiet', repoRoot, commit], { cwd: clone });
  const checkout = await run('git', ['checkout', '--quiet', fetched.code === 0 ? 'FETCH_HEAD' : 'HEAD'], { cwd: clone });
  if (checkout.code !== 0) throw new Error(describeRun('git checkout', checkout));
  const installed = ['node_modules', ...allWorkspaces().map((workspace) => `${workspace.dir}/node_modules`)].filter((dir) => existsSync(path.join(repoRoot, dir)));
  await Promise.all([linkingCache, ...installed.map((dir) => linkOrCopy(path.join(repoRoot, dir), path.join(clone, dir)))]);
}, 300_000);

/**
 * A folder of the checkout (node_modules as `npm install` left it, Turbo's cache) into the
 * scratch folder: hard links to its files (a second, where copying some 700 MB of node_modules
 * took half a minute), symbolic links kept as they are (a workspace's points into the clone); a
 * copy where the two are on different file systems. Nothing the commands run writes into an
 * installed package's files, and Turbo replaces a cache file rather than writing into it.
 */
async function linkOrCopy(from: string, to: string) {
  const linked = await run('cp', ['-al', from, to], { cwd: scratch });
  if (linked.code === 0) return;
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

afterAll(() => removeTree(scratch));

/** The README's command lines, as written in its tables. */
function readmeCommands(): string[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  // Table rows (| `npm run x …` |) and the quick start's lines (npm start   # …).
  return [...new Set([...readme.matchAll(/^(?:\|\s*`)?(npm (?:start|run [\w:]+))\b/gm)].map((match) => match[1]!))];
}

/** Runs one command in the clone with nothing built before it. */
async function fresh(commandLine: string[], timeoutMs = 100_000) {
  const clean = await run('git', ['clean', '-fdxq', '-e', 'node_modules'], { cwd: clone });
  if (clean.code !== 0) throw new Error(describeRun('git clean', clean));
  expect(existsSync(path.join(clone, 'spec', 'dist')), 'git clean left a build output').toBe(false);
  return runGroup(npm, commandLine, {
    cwd: clone, timeoutMs,
    env: cleanEnv({ TURBO_CACHE_DIR: turboCache, DATA_DIR: path.join(scratch, 'data'), CI: '1' }),
  });
}

describe('a fresh clone (nothing built)', () => {
  const commands = readmeCommands();

  it('the README names the commands checked here', () => {
    expect(commands).toEqual(expect.arrayContaining(['npm start', 'npm run dev', 'npm run build', 'npm run mock', 'npm run server', 'npm run contract', 'npm run docs', 'npm run lint']));
  });

  // Every command the README names gets its --help, which each answers only after its build step
  // (so a script that loads what the build makes before building fails here); the build and the
  // docs get a real run below; lint is the suite's own first step (npm test runs it).
  const realRuns = ['npm run build', 'npm run docs'];
  const notHere = ['npm run lint'];
  const helped = commands.filter((line) => !realRuns.includes(line) && !notHere.includes(line));
  it.each(helped)('%s -- --help', async (line) => {
    const result = await fresh([...line.split(' ').slice(1), '--', '--help']);
    expect(result.code, describeRun(`${line} -- --help`, result)).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/Usage:/);
  });

  it('npm run build writes the bundle', async () => {
    const result = await fresh(['run', 'build']);
    expect(result.code, describeRun('npm run build', result)).toBe(0);
    expect(JSON.parse(readFileSync(path.join(clone, 'spec', 'dist', 'openapi.json'), 'utf8')).openapi).toBe('3.1.0');
  });

  it('npm run docs writes the documentation page', async () => {
    const result = await fresh(['run', 'docs']);
    expect(result.code, describeRun('npm run docs', result)).toBe(0);
    expect(readFileSync(path.join(clone, 'packages', 'docs', 'dist', 'index.html'), 'utf8')).toMatch(/<html/i);
  });
});
