// A private PostgreSQL server for the tests: Debian's `postgresql` binaries (initdb, postgres),
// installed with apt-get when they are missing and this runs as root; otherwise the tests fail
// with a message saying how to get them. The server runs as the `postgres` OS user when the
// tests run as root (PostgreSQL refuses to run as root), in a temporary data directory, on a
// free port of 127.0.0.1, with its socket in a temporary directory, and is removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { accessSync, chownSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const POSTGRES_HINT = 'The server tests run every suite on PostgreSQL too and need its server binaries '
  + '(initdb and postgres, from Debian\'s postgresql package). Install them with '
  + '`sudo apt-get update && sudo apt-get install -y postgresql` (the test set-up does this itself when it runs as root with apt-get), '
  + 'or set POSTGRES_BIN_DIR to a folder holding initdb and postgres.';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Debian puts the server binaries in /usr/lib/postgresql/<version>/bin, not on PATH; newest first. */
export function debianBinDirs(root = '/usr/lib/postgresql'): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).filter((v) => /^\d+(\.\d+)?$/.test(v)).sort((a, b) => Number(b) - Number(a)).map((v) => path.join(root, v, 'bin'));
}

/**
 * Where to look: POSTGRES_BIN_DIR alone when set; else POSTGRES_SEARCH_PATH (a PATH-like list,
 * for rehearsing a machine without PostgreSQL) or PATH plus Debian's folders.
 */
export function searchDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.POSTGRES_BIN_DIR) return [env.POSTGRES_BIN_DIR];
  if (env.POSTGRES_SEARCH_PATH !== undefined) return env.POSTGRES_SEARCH_PATH.split(path.delimiter).filter(Boolean);
  return [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), ...debianBinDirs()];
}

export function findPostgres(dirs: string[]): PostgresBinaries | null {
  for (const dir of dirs) {
    const initdb = path.join(dir, 'initdb');
    const postgres = path.join(dir, 'postgres');
    if (executable(initdb) && executable(postgres)) return { initdb, postgres };
  }
  return null;
}

export type Installer = (log: (line: string) => void) => { ok: true } | { ok: false; output: string };

/** `apt-get install postgresql`, when this process is root and apt-get exists. */
export const aptInstaller: Installer = (log) => {
  log('PostgreSQL is missing: installing Debian\'s postgresql with apt-get (once per machine)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let output = '';
  // Another package's tests may be installing at the same moment: wait for apt's locks.
  for (const args of [['-o', 'DPkg::Lock::Timeout=600', 'update'], ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '--no-install-recommends', 'postgresql']]) {
    const result = spawnSync('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    output += `${result.stdout ?? ''}${result.stderr ?? ''}`;
    if (result.status !== 0) return { ok: false, output: `apt-get ${args.join(' ')} failed (exit ${result.status}):\n${output.slice(-3000)}` };
  }
  return { ok: true };
};

export function canInstall(): boolean {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return root && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * The binaries to use, or why there are none. Installs them first when they are missing and
 * `install` may (root with apt-get), then looks where Debian's package puts them.
 */
export function ensurePostgres(options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void; install?: Installer | null; afterInstallDirs?: () => string[] } = {}): { binaries: PostgresBinaries; installed?: boolean } | { error: string } {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const found = findPostgres(searchDirs(env));
  if (found) return { binaries: found };
  if (env.POSTGRES_BIN_DIR) return { error: `POSTGRES_BIN_DIR=${env.POSTGRES_BIN_DIR} holds no initdb and postgres. ${POSTGRES_HINT}` };
  const install = options.install === undefined ? (canInstall() ? aptInstaller : null) : options.install;
  if (!install) return { error: POSTGRES_HINT };
  const result = install(log);
  if (!result.ok) return { error: `${result.output}\n${POSTGRES_HINT}` };
  const installed = findPostgres((options.afterInstallDirs ?? debianBinDirs)());
  return installed ? { binaries: installed, installed: true } : { error: `apt-get installed postgresql but no initdb and postgres were found in /usr/lib/postgresql/*/bin. ${POSTGRES_HINT}` };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** uid and gid of the `postgres` OS user, when this runs as root. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('The tests run as root, and PostgreSQL refuses to run as root: they run it as the `postgres` OS user, which does not exist here. Debian\'s postgresql package creates it.');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** The postmaster's process id (its backends are its children). */
  pid: number;
  stop(): Promise<void>;
}

async function waitReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}:\n${output().slice(-3000)}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${timeoutMs} ms:\n${output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startPostgres(binaries: PostgresBinaries, options: { autovacuum?: boolean } = {}): Promise<RunningPostgres> {
  const user = postgresUser();
  const root = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-pg-'));
  const dataDir = path.join(root, 'data');
  const socketDir = path.join(root, 'socket');
  mkdirSync(socketDir);
  if (user) {
    chownSync(root, user.uid, user.gid);
    chownSync(socketDir, user.uid, user.gid);
  }
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  const init = spawnSync(binaries.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '-N'], { encoding: 'utf8', cwd: root, ...asUser });
  if (init.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (exit ${init.status}):\n${`${init.stdout}${init.stderr}`.slice(-3000)}`);
  }
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // Durability settings off: the tests kill server processes, never PostgreSQL itself.
    const child = spawn(binaries.postgres, [
      '-D', dataDir, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300',
      '-c', `autovacuum=${options.autovacuum === false ? 'off' : 'on'}`,
    ], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...asUser });
    let output = '';
    child.stdout!.on('data', (d) => { output += d; });
    child.stderr!.on('data', (d) => { output += d; });
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    try {
      await waitReady(url, child, () => output, 60_000);
    } catch (error) {
      child.kill('SIGKILL');
      if (attempt < 3 && /could not bind|Address already in use/.test(output)) continue;
      rmSync(root, { recursive: true, force: true });
      throw error;
    }
    return {
      url,
      port,
      pid: child.pid!,
      stop: async () => {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGINT'); // fast shutdown
          // The timer is cleared once postgres has exited: left running, it kept the test run's
          // process alive for its full 10 s after every run of the postgres project.
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([exited, new Promise((r) => { timer = setTimeout(r, 10_000); })]);
          clearTimeout(timer);
          if (child.exitCode === null) child.kill('SIGKILL');
        }
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `sql` on one connection of its own to `url`. */
async function runOnce(url: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test file (or one test), on the shared test server: empty, or a
 * copy of `template` (PostgreSQL copies its files: far cheaper than making its tables again).
 */
export async function createDatabase(adminUrl: string, hint: string, template?: string): Promise<string> {
  const name = `t_${hint.replace(/[^a-z0-9]+/gi, '_').toLowerCase().slice(0, 40)}_${Math.random().toString(36).slice(2, 8)}`;
  await runOnce(adminUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  return databaseUrl(adminUrl, name);
}
