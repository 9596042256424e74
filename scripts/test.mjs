#!/usr/bin/env node
// `npm test`: runs lint and every package's tests through Turbo (as before), streaming the output,
// then ends with one total across packages, e.g. `1520 passed, 0 failed (9 test runs, 12 skipped)`.
// The counts come from the summary line each Vitest run prints ("Tests  N passed | M failed"),
// which Turbo replays for cached tasks too; a test file that failed before its tests ran (an import
// that does not resolve) counts as one failure ("Failed Suites N"), as its tests are only skipped. Exits with Turbo's status, and 1 when a test task ran
// but printed no summary (it crashed before counting): a total must never look green by omission.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const turbo = require.resolve('turbo/bin/turbo');
// --continue: one failing package does not hide the others' results from the total (tasks whose
// dependencies failed still do not run).
const args = ['run', 'lint', 'test', '--concurrency=2', '--continue=dependencies-successful', ...process.argv.slice(2)];

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

if (import.meta.url === `file://${process.argv[1]}`) {
  let output = '';
  const child = spawn(process.execPath, [turbo, ...args], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] });
  child.stdout.on('data', (chunk) => { output += chunk; process.stdout.write(chunk); });
  child.on('close', (code, signal) => {
    const sum = totals(output);
    const silent = [...sum.testTasks].filter((task) => !sum.tasks.has(task));
    const extra = [`${sum.runs} test runs`, sum.skipped && `${sum.skipped} skipped`, sum.todo && `${sum.todo} todo`].filter(Boolean).join(', ');
    console.log(`\n${sum.passed} passed, ${sum.failed} failed (${extra})`);
    if (silent.length) console.log(`✖ no test count from ${silent.join(', ')}: its tests did not run to the end (see its output above).`);
    process.exit(signal ? 1 : code || (sum.failed || silent.length ? 1 : 0));
  });
}
