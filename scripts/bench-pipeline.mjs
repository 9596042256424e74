// `npm run bench`: times the spec pipeline and prints the figures. Not a test: numbers vary
// with the machine; read them, compare them, do not assert on them.
//   cold build   turbo with --force (no cache), bundling from scratch
//   cached build turbo with nothing changed (should be a full cache hit)
//   one file     turbo after one spec file changed (everything depends on the spec)
//   client only  turbo after one client source changed (only the client rebuilds)
//   lint         the house style guide over sources and bundle, run directly (no cache)
//   `npm run bench:dev` times the designer loop (npm run dev) from a save.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { command, parse, positiveInteger } from '@cloudapi/spec/cli';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { runs } = parse(command('bench', 'Times the spec pipeline: cold, cached and incremental builds, and lint.')
  .option('--runs <n>', 'runs of each measurement (or BENCH_RUNS)', positiveInteger, Number(process.env.BENCH_RUNS || 3)));

function time(label, command, args, options = {}) {
  const samples = [];
  let output = '';
  for (let i = 0; i < runs; i++) {
    options.before?.();
    const started = process.hrtime.bigint();
    const result = spawnSync(command, args, { cwd: rootDir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    options.after?.();
    if (result.status !== 0) throw new Error(`${label} failed:\n${result.stdout}\n${result.stderr}`);
    output = result.stdout;
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  const cached = (output.match(/Cached:\s+(\d+) cached, (\d+) total/) || []).slice(1).join('/');
  console.log(`${label.padEnd(36)} median ${(median / 1000).toFixed(2).padStart(6)} s   min ${(samples[0] / 1000).toFixed(2)} s   max ${(samples.at(-1) / 1000).toFixed(2)} s${cached ? `   turbo cache ${cached}` : ''}`);
}

console.log(`spec pipeline, ${runs} runs each, node ${process.version}\n`);
time('cold build (turbo --force)', 'npx', ['turbo', 'run', 'build', '--force']);
time('cached build (nothing changed)', 'npx', ['turbo', 'run', 'build']);

// Appends a comment to `file` before each run and restores it after (and at the end).
function withTouched(label, file) {
  const touched = path.join(rootDir, file);
  const original = readFileSync(touched, 'utf8');
  const comment = file.endsWith('.yaml') ? '#' : '//';
  let n = 0;
  try {
    time(label, 'npx', ['turbo', 'run', 'build'], {
      before: () => appendFileSync(touched, `${comment} bench ${Date.now()}-${n++}\n`),
      after: () => writeFileSync(touched, original),
    });
  } finally {
    writeFileSync(touched, original);
  }
}
withTouched('build after one spec file changed', 'spec/paths/regions/regions.yaml');
time('build again (cache hit)', 'npx', ['turbo', 'run', 'build']);
withTouched('build after one client file changed', 'packages/client/src/errors.ts');
time('lint (sources + bundle, no cache)', process.execPath, ['spec/scripts/lint.mjs'], {});
