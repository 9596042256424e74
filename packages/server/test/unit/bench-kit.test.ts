// The benchmark's PostgreSQL cases load the test harness's PostgreSQL through a build of their own
// (scripts/bench-kit.mjs); a build that no longer loads (the pg driver bundled into an ES module)
// failed only when someone ran `npm run bench:server`, long after the change. Loaded by plain
// Node from the repository's root, as `npm run bench:server` runs it: Vitest's module runner would
// lend the build a `require` Node does not, and tsup leaves out only what the cwd's package.json lists.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const kit = new URL('../../scripts/bench-kit.mjs', import.meta.url).href;
const probe = `const { harnessPostgres } = await import(${JSON.stringify(kit)}); const harness = await harnessPostgres(); console.log(typeof harness.startPostgres);`;

describe('bench:server\'s PostgreSQL harness', () => {
  it('builds and loads in plain Node, with the harness\'s way to start a PostgreSQL server', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe], { cwd: fileURLToPath(new URL('../../../..', import.meta.url)) });
    expect(stdout.trim()).toBe('function');
  });
});
