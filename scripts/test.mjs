#!/usr/bin/env node
// `npm test`: lint and every package's tests through Turbo, streaming the output, ending with one
// total across packages, e.g. `1520 passed, 0 failed (9 test runs, 12 skipped)`.
//
// Two steps, for the two cores CI has. First `turbo run build pack`: everything the tests load
// (and the tarballs the release, msw and cli tests install). Then the test and lint tasks in two
// lanes, each running one task at a time (`turbo run <task> --filter=<package>`: its builds are
// replayed from the first step's cache), taken
// from one queue: the longest tests first (LONGEST_FIRST), the other tests, then the lints. A
// single `turbo run lint test --concurrency=2` starts ready tasks in no particular order, so the
// builds waited behind tests and the longest test often started last, with one core idle at the
// end. Turbo still caches every task: a second `npm test` with no change replays them all.
// `npm test -- --filter=…` runs that selection as one Turbo run (as does any argument that selects
// packages); other arguments (--force, --summarize) go to every Turbo run.
//
// The counts come from the summary line each Vitest run prints ("Tests  N passed | M failed"),
// which Turbo replays for cached tasks too; a test file that failed before its tests ran (an import
// that does not resolve) counts as one failure ("Failed Suites N"), as its tests are only skipped.
// Exits 1 when a Turbo run failed, a test failed, or a test task ran but printed no summary (it
// crashed before counting): a total must never look green by omission.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaces } from './workspaces.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const turbo = require.resolve('turbo/bin/turbo');

/** Lanes: one task per core. More would only slow the timing-sensitive tests (Prism, Chromium, the server's watchdog). */
export const LANES = 2;

/**
 * The packages whose tests take longest (on two cores, at rest), longest first: they start first,
 * so that both lanes end together. A package not named here follows them, in name order.
 */
export const LONGEST_FIRST = [
  '@cloudapi/server', '@cloudapi/docs', '@cloudapi/release', '@cloudapi/spec', '@cloudapi/msw', '@cloudapi/generators',
  '@cloudapi/contract', '@cloudapi/mock', '@cloudapi/dev', '@cloudapi/client', '@cloudapi/cli', '@cloudapi/neighbours', '@cloudapi/types',
  '@cloudapi/example-web-app',
];

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Sums the Vitest summaries of Turbo's output; `tasks` are the test tasks that printed one. */
export function totals(output) {
  const sum = { passed: 0, failed: 0, skipped: 0, todo: 0, runs: 0, tasks: new Set(), testTasks: new Set() };
  for (const raw of output.split('\n')) {
    const line = raw.replace(ANSI, '');
    const task = /^(\S+):test: /.exec(line)?.[1];
    if (task) sum.testTasks.add(task);
    const suites = /Failed Suites (\d+)/.exec(line);
    if (task && suites) sum.failed += Number(suites[1]);
    const summary = /(?:^|\s)Tests\s+(.*\(\d+\))\s*$/.exec(line);
    if (!task || !summary) continue;
    sum.runs += 1;
    sum.tasks.add(task);
    for (const [, count, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) sum[kind] += Number(count);
  }
  return sum;
}

/**
 * The queue of the second step: [task, package] pairs, the tests of LONGEST_FIRST, the other
 * tests, then the lints (short, they fill the end).
 * @param {{ manifest: { name: string, scripts?: Record<string, string> } }[]} packages
 */
export function schedule(packages) {
  const rank = (name) => { const at = LONGEST_FIRST.indexOf(name); return at < 0 ? LONGEST_FIRST.length : at; };
  const ordered = packages.map(({ manifest }) => manifest).sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  return ['test', 'lint'].flatMap((task) => ordered.filter((manifest) => manifest.scripts?.[task]).map((manifest) => [task, manifest.name]));
}

// Turbo's banner and summary of each run, and the builds each lane replays from the first step's
// cache, dropped from the stream: the lanes make many runs, and the end of `npm test` says what
// they did together.
const TURBO_CHROME = /^\s*(• |Tasks: |Cached: |Time: |Summary: |Failed: )|^\s*$|ERROR {2}run failed|^\S+:(build|pack): cache hit, suppressing logs/;

/** One Turbo run; its output goes to ours line by line (whole lines, as two lanes interleave). */
function runTurbo(args, sink) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [turbo, ...args], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] });
    let output = '';
    let pending = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      sink(lines);
    });
    child.on('close', (code, signal) => {
      if (pending) sink([pending]);
      const tasks = /Tasks:\s+(\d+) successful, (\d+) total/.exec(output.replace(ANSI, ''));
      const cached = /Cached:\s+(\d+) cached/.exec(output.replace(ANSI, ''));
      resolve({ code: signal ? 1 : code ?? 1, output, successful: Number(tasks?.[1] ?? 0), total: Number(tasks?.[2] ?? 0), cached: Number(cached?.[1] ?? 0) });
    });
  });
}

async function main(extra) {
  const started = Date.now();
  const print = (lines) => { for (const line of lines) process.stdout.write(`${line}\n`); };
  const quiet = (lines) => print(lines.filter((line) => !TURBO_CHROME.test(line.replace(ANSI, ''))));
  const continueFlag = '--continue=dependencies-successful';
  let runs;
  if (extra.some((arg) => /^(--filter|-F|--affected)\b/.test(arg))) {
    runs = [await runTurbo(['run', 'lint', 'test', `--concurrency=${LANES}`, continueFlag, ...extra], print)];
  } else {
    // --continue: one failing package does not hide the others' results from the total (tasks
    // whose build failed are tried again in their lane, and fail there too).
    runs = [await runTurbo(['run', 'build', 'pack', continueFlag, ...extra], quiet)];
    const queue = schedule(workspaces(root));
    // With --force the first step rebuilt everything; a lane runs its one task (--only), never the
    // builds again under the running tests.
    const only = extra.includes('--force') ? ['--only'] : [];
    const lane = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const [task, name] = item;
        const since = Date.now();
        const run = await runTurbo(['run', task, `--filter=${name}`, continueFlag, ...only, ...extra], quiet);
        runs.push({ ...run, label: `${name}#${task}`, ms: Date.now() - since });
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
  }
  const output = runs.map((run) => run.output).join('\n');
  const sum = totals(output);
  const failedRuns = runs.filter((run) => run.code !== 0).length;
  const failedTasks = [...new Set(runs.flatMap((run) => /Failed:\s+(.*)/.exec(run.output.replace(ANSI, ''))?.[1].split(/,\s*/) ?? []))];
  const silent = [...sum.testTasks].filter((task) => !sum.tasks.has(task));
  const count = (key) => runs.reduce((total, run) => total + run[key], 0);
  const minutes = (ms) => `${Math.floor(ms / 60_000)}m${((ms % 60_000) / 1000).toFixed(1).padStart(4, '0')}s`;
  console.log(`\nTurbo: ${count('successful')} of ${count('total')} tasks successful (${count('cached')} from its cache) in ${minutes(Date.now() - started)}`);
  // Where the time went: the lanes' tasks that took longest (a cached one takes a second or two).
  const slowest = runs.filter((run) => run.label && run.ms >= 5_000).sort((a, b) => b.ms - a.ms);
  if (slowest.length) console.log(`slowest tasks: ${slowest.map((run) => `${run.label} ${(run.ms / 1000).toFixed(0)} s`).join(', ')}`);
  if (failedTasks.length) console.log(`✖ failed: ${failedTasks.join(', ')}`);
  const details = [`${sum.runs} test runs`, sum.skipped && `${sum.skipped} skipped`, sum.todo && `${sum.todo} todo`].filter(Boolean).join(', ');
  console.log(`${sum.passed} passed, ${sum.failed} failed (${details})`);
  if (silent.length) console.log(`✖ no test count from ${silent.join(', ')}: its tests did not run to the end (see its output above).`);
  return failedRuns || sum.failed || silent.length ? 1 : 0;
}

const USAGE = `Usage: npm test [-- <turbo options>]

Lint and every package's tests: builds and packs first, then the tasks in ${LANES} lanes, longest first.
  npm test -- --filter=<workspace>   one Turbo run of that selection (also --affected: npm run test:quick)
  npm test -- --force                nothing from Turbo's cache
  npm test -- --summarize            Turbo's run summaries in .turbo/runs/`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  process.exit(await main(args));
}
