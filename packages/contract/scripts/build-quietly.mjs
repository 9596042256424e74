#!/usr/bin/env node
// `npm run contract` and `npm run contract:server` build what they need through Turbo first. Turbo's
// banner and summary would precede every run, so its output is kept back: nothing is printed when
// every task came from the cache, one line when something was built, and all of it when the build
// failed (then the run could not be made: exit 2, with the kit's summary line last).
// Arguments: the packages to build with their dependencies (`contract`, `server`); one missing
// from the checkout is left out.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const names = process.argv.slice(2).filter((name) => existsSync(path.join(root, 'packages', name, 'package.json')));
const turbo = path.join(root, 'node_modules', '.bin', 'turbo');
const args = ['run', 'build', ...names.map((name) => `--filter=@cloudapi/${name}...`), '--output-logs=errors-only'];
const started = Date.now();
const run = spawnSync(turbo, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (run.status !== 0) {
  process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? `${run.error.message}\n` : ''}`);
  process.stderr.write(`✖ the run could not be made: building ${names.join(', ')} failed (turbo ${args.join(' ')}, above)\nsuccess validated 0/0\n`);
  process.exit(2);
}
const cached = /Cached:\s+(\d+) cached, (\d+) total/.exec(run.stdout ?? '');
if (!cached || cached[1] !== cached[2]) {
  const built = cached ? `${Number(cached[2]) - Number(cached[1])} of ${cached[2]} build steps` : 'what it needs';
  process.stderr.write(`built ${built} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
