// The sample consumer (test/consumer): a fresh folder outside the workspace that installs
// @cloudapi/msw and @cloudapi/client from their tarballs (the pack task's, test-support/tarballs.mjs;
// with @cloudapi/types, the generated types both depend on, which is not on a registry either) and runs its own Vitest
// suite with them: msw/node with the client, a typed override, the stateful mode, and a type
// test whose @ts-expect-error lines must be compile errors.
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The release checks' way of running npm as a consumer would (outside the workspace, no npm_* variables).
import { describeRun, run as runIn } from '../../release/test/support/npm.js';
import { packedTarballs } from '../../../test-support/tarballs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const run = (command: string, args: string[], cwd: string) => runIn(command, args, { cwd, timeoutMs: 300_000 });
const manifest = JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
const installed = (name: string) => JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version as string;

let scratch = '';
let app = '';

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-msw-consumer-'));
  const packed = packedTarballs(['@cloudapi/types', '@cloudapi/client', '@cloudapi/msw']);
  const tarball = (name: string) => packed.find((p) => p.name === name)!.tarball;

  app = path.join(scratch, 'app');
  mkdirSync(app);
  for (const name of readdirSync(path.join(here, 'consumer'))) copyFileSync(path.join(here, 'consumer', name), path.join(app, name));
  writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({
    name: 'msw-consumer', private: true, type: 'module',
    devDependencies: {
      '@cloudapi/msw': `file:${tarball('@cloudapi/msw')}`,
      '@cloudapi/client': `file:${tarball('@cloudapi/client')}`,
      msw: installed('msw'),
      vitest: installed('vitest'),
      typescript: manifest.devDependencies.typescript,
    },
    // Not on a registry: the types both packages depend on come from their tarball too.
    overrides: { '@cloudapi/types': `file:${tarball('@cloudapi/types')}` },
  }, null, 2)}\n`);
  // --prefer-offline: packages come from the npm cache the workspace's install filled.
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], app);
  if (install.code !== 0) throw new Error(describeRun('npm install of the tarballs', install));
}, 420_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('a consumer of the tarballs', () => {
  it('has @cloudapi/msw and @cloudapi/client installed as real folders, not links into the workspace', () => {
    for (const name of ['@cloudapi/msw', '@cloudapi/client', '@cloudapi/types']) {
      const folder = path.join(app, 'node_modules', name);
      expect(lstatSync(folder).isSymbolicLink(), name).toBe(false);
      expect(JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).version).toBe(manifest.version);
    }
    expect(readdirSync(path.join(app, 'node_modules', '@cloudapi')).sort()).toEqual(['client', 'msw', 'types']);
  });

  it('runs its Vitest suite with them: runtime tests and the type test pass', async () => {
    const result = await run(process.execPath, [path.join(app, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], app);
    expect(result.code, describeRun('vitest run', result)).toBe(0);
    expect(result.stdout).toMatch(/Tests\s+5 passed \(5\)/);
    expect(result.stdout).toMatch(/Type Errors\s+no errors/);
  }, 240_000);

  it('fails its type test when an expected compile error goes away', async () => {
    const file = path.join(app, 'types.test-d.ts');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace("volumeId: 'twelve'", 'volumeId: 12'));
    try {
      const result = await run(process.execPath, [path.join(app, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'types.test-d.ts'], app);
      expect(result.code).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toMatch(/Unused '@ts-expect-error' directive/);
    } finally {
      writeFileSync(file, original);
    }
  }, 240_000);
});
