// The command-line convention of the root scripts (npm start / dev, the benchmarks): --help
// prints the usage and exits 0; an unknown flag prints the usage to stderr and exits 2, before
// anything is built, served or edited.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = (script, ...args) => spawnSync(process.execPath, [path.join(rootDir, 'scripts', script), ...args], { encoding: 'utf8', timeout: 60_000 });

describe.each(['start.mjs', 'bench-pipeline.mjs', 'bench-dev.mjs'])('scripts/%s', (script) => {
  it('prints its usage for --help and exits 0', () => {
    const result = run(script, '--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: [\w-]+ \[options\]/);
  });

  it('refuses an unknown flag with the usage on stderr and exit 2', () => {
    const result = run(script, '--no-such-flag');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown option '--no-such-flag'");
    expect(result.stderr).toMatch(/Usage: [\w-]+ \[options\]/);
  });
});

describe('scripts/bench-dev.mjs', () => {
  it('refuses a number of runs that is not a positive integer', () => {
    const result = run('bench-dev.mjs', '--runs', 'zero');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--runs <n>.*expected a positive integer/);
  });
});
