// The command line as a user gets it: the tarballs it needs (cli, client, types, spec) and the
// server's, as the pack task made them (test-support/tarballs.mjs), installed into an empty folder
// outside the workspace, then `npx cloudapi-server` started on a free port and `npx cloudapi` run
// against it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedTarballs, provideSqliteBinding } from '../../../test-support/tarballs.mjs';
import { tempDir } from './support/cli.js';

// (@cloudapi/sqlite-node20: the server's SQLite driver on Node 20, an optional dependency a consumer gets from the registry.)
const PACKAGES = ['@cloudapi/cli', '@cloudapi/client', '@cloudapi/types', '@cloudapi/spec', '@cloudapi/server', '@cloudapi/sqlite-node20'];

interface Run { code: number; stdout: string; stderr: string }
// npm_* variables that a `npm test` passes down would point npm back at the monorepo.
const env = () => ({ ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))), NO_COLOR: '1' });
const exec = (command: string, args: string[], cwd: string, extra: Record<string, string> = {}, timeout = 240_000) => new Promise<Run>((resolve, reject) => {
  execFile(command, args, { cwd, env: { ...env(), ...extra }, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
    if (error && typeof error.code !== 'number') reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`));
    else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
  });
});
const said = (what: string, run: Run) => `${what} exited ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;

let scratch = '';
let app = '';
let server: ChildProcess | undefined;
let baseUrl = '';
let token = '';

beforeAll(async () => {
  scratch = tempDir('package');
  app = path.join(scratch, 'app');
  mkdirSync(app);
  const packed = packedTarballs(PACKAGES);
  writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'cli-consumer', private: true, type: 'module' }, null, 2)}\n`);
  const install = await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...packed.map(({ tarball }) => tarball)], app, {}, 400_000);
  if (install.code !== 0) throw new Error(said('npm install of the tarballs', install));
  await provideSqliteBinding(app, (command, args, cwd) => exec(command, args, cwd, {}, 600_000));

  server = spawn('npx', ['--no-install', 'cloudapi-server', '--port', '0'], { cwd: app, env: { ...env(), TRANSITION_MS: '0', DATA_DIR: path.join(scratch, 'data'), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cloudapi-server did not start in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const serving = output.match(/serving (http:\/\/127\.0\.0\.1:\d+\/v4)/);
      const issued = output.match(/^token: (\S+)$/m);
      if (serving && issued) { clearTimeout(timer); baseUrl = serving[1]!; token = issued[1]!; resolve(); }
    };
    server!.stdout!.on('data', read);
    server!.stderr!.on('data', read);
    server!.on('exit', (code) => { clearTimeout(timer); reject(new Error(`cloudapi-server exited ${code}:\n${output}`)); });
  });
}, 600_000);

/** Whether a process of the group is left. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    // The whole group: npx runs the server as a child of its own, which a signal to npx alone leaves running.
    process.kill(-server.pid!, 'SIGTERM');
    await exited;
    for (let tries = 0; groupAlive(server.pid!) && tries < 100; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(groupAlive(server.pid!), 'the server npx started is still running after SIGTERM').toBe(false);
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const cloudapiEnv = () => ({ CLOUDAPI_TOKEN: token, CLOUDAPI_BASE_URL: baseUrl, XDG_CONFIG_HOME: path.join(scratch, 'config') });
const npxCloudapi = (...args: string[]) => exec('npx', ['--no-install', 'cloudapi', ...args], app, cloudapiEnv());
// The bin npm linked at install, run as a shell runs it (its #! line): npx is shown finding it above,
// and each npx costs an npm start-up (half a second of CPU).
const installedCloudapi = (...args: string[]) => exec(path.join(app, 'node_modules', '.bin', 'cloudapi'), args, app, cloudapiEnv());

describe('the installed tarballs', () => {
  it('npx cloudapi volumes create, then npx cloudapi volumes list --json, against npx cloudapi-server', async () => {
    const created = await npxCloudapi('volumes', 'create', '--label', 'from-tarball', '--region', 'us-east', '--size', '20');
    expect(created.code, said('cloudapi volumes create', created)).toBe(0);
    expect(created.stdout).toMatch(/from-tarball\s+active\s+20\s+us-east/);
    const listed = await npxCloudapi('volumes', 'list', '--json');
    expect(listed.code, said('cloudapi volumes list --json', listed)).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ label: 'from-tarball', region: 'us-east', size: 20 })]);
  });

  it('exits 2 on a usage error and 1 on a refusal, from the installed bin', async () => {
    const usage = await installedCloudapi('volumes', 'create', '--size', 'twenty');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--size: must be integer');
    const refused = await installedCloudapi('volumes', 'view', '424242');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('Volume 424242 does not exist\n');
  });
});
