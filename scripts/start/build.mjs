// The build phase of `npm start` (scripts/start.mjs), in two steps so that a fresh clone serves
// sooner: first what the three servers load (the bundle, the mock's document, the docs site, the
// server, and the types the server's declarations are checked against: the Turbo tasks of
// SERVED), then, while they serve, the rest of `npm run build` (the client, the contract kit,
// the command line, the MSW handlers) in the background at a lower CPU priority, with a line when
// it is done. Both are `turbo run build`, so a second start replays everything from Turbo's cache,
// and the second step finds the served packages' tasks cached and leaves their files as they are.
import { spawn, spawnSync } from 'node:child_process';
import { setPriority } from 'node:os';

/** The workspaces whose builds `npm start` serves from (their own dependencies come with them). */
export const SERVED = ['@cloudapi/docs', '@cloudapi/mock', '@cloudapi/server'];

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const counts = (output) => {
  const match = /Cached:\s+(\d+) cached, (\d+) total/.exec(output);
  return match ? { cached: Number(match[1]), total: Number(match[2]) } : null;
};

/**
 * Builds what the servers need, printing one line; on a failure prints Turbo's whole output and
 * exits with its status. Turbo's banner and summary are kept back otherwise.
 */
export function buildForServing(rootDir) {
  const started = Date.now();
  const build = spawnSync(npx, ['turbo', 'run', 'build', ...SERVED.map((name) => `--filter=${name}`), '--output-logs=errors-only'],
    { cwd: rootDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${build.stdout ?? ''}${build.stderr ?? ''}`;
  if (build.status !== 0) {
    process.stderr.write(output);
    console.error('\n✖ build failed; the output above says which task and why.');
    process.exit(build.status || 1);
  }
  const tasks = counts(output);
  console.log(tasks && tasks.cached === tasks.total
    ? `✔ build: what the docs, the mock and the server need is up to date (${tasks.total} tasks from Turbo's cache)`
    : `✔ built what the docs, the mock and the server need (${tasks ? `${tasks.total - tasks.cached} of ${tasks.total} tasks` : 'the bundle, the mock, the docs, the server'}) in ${seconds(started)}`);
}

/**
 * Starts the rest of `npm run build` in the background (niced, so that the servers' start-up keeps
 * the CPU), and prints one line when it ends: what it built, or that it failed with the output.
 * The build stops with this process.
 */
export function buildTheRestInBackground(rootDir) {
  const started = Date.now();
  const child = spawn(npx, ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'pipe'] });
  try { setPriority(child.pid, 10); } catch { /* not allowed here: it runs at the normal priority */ }
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  const stop = () => { if (child.exitCode === null) child.kill('SIGINT'); };
  process.once('exit', stop);
  child.on('close', (code, signal) => {
    process.removeListener('exit', stop);
    if (signal) return;
    if (code !== 0) {
      process.stderr.write(output);
      console.error(`✖ the rest of the build (the client, the contract kit, the command line, the MSW handlers) failed: the output above says which task and why; the docs, the mock and the server keep serving.`);
      return;
    }
    const tasks = counts(output);
    if (tasks && tasks.cached < tasks.total) console.log(`✔ built the rest of the pipeline in the background (${tasks.total - tasks.cached} more tasks: the client, the contract kit, the command line, the MSW handlers) in ${seconds(started)}`);
  });
  return { stop };
}
