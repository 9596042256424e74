// `npm run bench`: times the spec pipeline and prints the figures. Not a test: numbers vary
// with the machine; read them, compare them, do not assert on them.
//   cold build   turbo with --force (no cache), bundling from scratch
//   cached build turbo with nothing changed (should be a full cache hit)
//   one file     turbo after one spec file changed (rebuilds only what depends on it)
//   lint         the house style guide over sources and bundle, run directly (no cache)
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS || 3);

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
  console.log(`${label.padEnd(34)} median ${(median / 1000).toFixed(2).padStart(6)} s   min ${(samples[0] / 1000).toFixed(2)} s   max ${(samples.at(-1) / 1000).toFixed(2)} s${cached ? `   turbo cache ${cached}` : ''}`);
}

console.log(`spec pipeline, ${runs} runs each, node ${process.version}\n`);
time('cold build (turbo --force)', 'npx', ['turbo', 'run', 'build', '--force']);
time('cached build (nothing changed)', 'npx', ['turbo', 'run', 'build']);

const touched = path.join(rootDir, 'spec/paths/regions/regions.yaml');
const original = readFileSync(touched, 'utf8');
let n = 0;
time('build after one spec file changed', 'npx', ['turbo', 'run', 'build'], {
  before: () => appendFileSync(touched, `# bench ${Date.now()}-${n++}\n`),
  after: () => writeFileSync(touched, original),
});
writeFileSync(touched, original);
time('lint (sources + bundle, no cache)', process.execPath, ['spec/scripts/lint.mjs'], {});
