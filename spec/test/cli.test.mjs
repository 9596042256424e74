// The command-line convention of the spec's scripts: --help prints the usage and exits 0; an
// unknown flag or a stray argument prints the problem and the usage to stderr and exits 2,
// before any work is done.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { specDir } from './helpers.mjs';

const run = (script, ...args) => spawnSync(process.execPath, [path.join(specDir, 'scripts', script), ...args], { encoding: 'utf8' });

describe.each(['lint.mjs', 'bundle.mjs', 'breaking.mjs', 'changelog.mjs', 'record-release.mjs'])('%s', (script) => {
  it('prints its usage for --help and exits 0', () => {
    const result = run(script, '--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: [\w-]+ \[options\]/);
    expect(result.stdout).toContain('--help');
  });

  it('refuses an unknown flag with the usage on stderr and exit 2', () => {
    const result = run(script, '--no-such-flag');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown option '--no-such-flag'");
    expect(result.stderr).toMatch(/Usage: [\w-]+ \[options\]/);
    expect(result.stdout).toBe('');
  });
});

describe('flags that need a value', () => {
  it('refuses --base without a ref', () => {
    const result = run('breaking.mjs', '--base');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/option '--base <ref>' argument missing/);
  });

  it('refuses an argument bundle.mjs does not take', () => {
    const result = run('bundle.mjs', 'openapi.yaml');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/too many arguments/);
  });
});
