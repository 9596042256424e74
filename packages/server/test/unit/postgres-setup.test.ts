// The tests' PostgreSQL set-up (test/harness/postgres.ts): finds the binaries where Debian puts
// them, installs them when missing and it may, and otherwise fails saying how to get them.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensurePostgres, findPostgres, POSTGRES_HINT, searchDirs } from '../harness/postgres.js';
import { tempDir } from '../harness/harness.js';

function fakeBinDir(): string {
  const dir = path.join(tempDir('pg-bin'), 'bin');
  mkdirSync(dir, { recursive: true });
  for (const name of ['initdb', 'postgres']) {
    writeFileSync(path.join(dir, name), '#!/bin/sh\n');
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}

describe('finding PostgreSQL for the tests', () => {
  it('looks on PATH and in /usr/lib/postgresql/<version>/bin, or only where POSTGRES_BIN_DIR or POSTGRES_SEARCH_PATH say', () => {
    expect(searchDirs({ PATH: '/a:/b' })).toEqual(expect.arrayContaining(['/a', '/b']));
    expect(searchDirs({ PATH: '/a', POSTGRES_BIN_DIR: '/pg' })).toEqual(['/pg']);
    expect(searchDirs({ PATH: '/a', POSTGRES_SEARCH_PATH: '' })).toEqual([]);
    const dir = fakeBinDir();
    expect(findPostgres(['/nonexistent', dir])).toEqual({ initdb: path.join(dir, 'initdb'), postgres: path.join(dir, 'postgres') });
  });

  it('when missing and it may install, installs and then uses what the package put in place', () => {
    const installed = fakeBinDir();
    const calls: string[] = [];
    const result = ensurePostgres({ env: { POSTGRES_SEARCH_PATH: '' }, install: (log) => { log('installing'); calls.push('install'); return { ok: true }; }, afterInstallDirs: () => [installed], log: (l) => calls.push(l) });
    expect(calls).toEqual(['installing', 'install']);
    expect(result).toEqual({ binaries: { initdb: path.join(installed, 'initdb'), postgres: path.join(installed, 'postgres') }, installed: true });
  });

  it('when missing and it may not install, fails saying how to get PostgreSQL', () => {
    const result = ensurePostgres({ env: { POSTGRES_SEARCH_PATH: '' }, install: null });
    expect(result).toEqual({ error: POSTGRES_HINT });
    expect(POSTGRES_HINT).toMatch(/apt-get install -y postgresql/);
  });

  it('when the installation fails, fails with its output and the hint', () => {
    const result = ensurePostgres({ env: { POSTGRES_SEARCH_PATH: '' }, install: () => ({ ok: false, output: 'E: Unable to locate package postgresql' }) });
    expect('error' in result && result.error).toMatch(/Unable to locate package[\s\S]*apt-get install -y postgresql/);
  });

  it('when POSTGRES_BIN_DIR names a folder without the binaries, says so and does not install', () => {
    let installed = false;
    const result = ensurePostgres({ env: { POSTGRES_BIN_DIR: tempDir('pg-empty') }, install: () => { installed = true; return { ok: true }; } });
    expect(installed).toBe(false);
    expect('error' in result && result.error).toMatch(/POSTGRES_BIN_DIR=.* holds no initdb and postgres/);
  });
});
