// The test harness: a reference server on port 0 of 127.0.0.1, on the engine of the Vitest project
// running the file (`sqlite`: a temporary DATA_DIR; `postgres`: a database of its own on the
// run's private PostgreSQL), with a tokens file of standard tokens, and request helpers.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { startServer } from '../../src/server.js';
import type { RunningServer, ServerOptions } from '../../src/server.js';
import type { Clock } from '../../src/core/clock.js';
import { createDatabase } from './postgres.js';
import { giveOwnSigningSecret, migratedDatabase, migratedSqliteFile } from './store-templates.js';

export type Engine = 'sqlite' | 'postgres';
export const engine: Engine = process.env.CLOUDAPI_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The standard tokens every test server knows, by name. */
export const TOKENS = {
  /** Every scope and grant, unrestricted. */
  full: { token: 'test-full-access', scopes: '*', grants: 'all', restricted: false },
  /** Every area read-only. */
  readOnly: { token: 'test-read-only', scopes: 'account:read_only balancers:read_only computes:read_only domains:read_only images:read_only object_storage:read_only volumes:read_only', grants: 'all', restricted: false },
  /** Every scope, no grant, restricted: holds only what it creates. */
  restricted: { token: 'test-restricted', scopes: '*', grants: [], restricted: true },
  /** Every scope, unrestricted, but no account grant (no add_volumes). */
  noGrants: { token: 'test-no-grants', scopes: '*', grants: [], restricted: false },
  /** Restricted, may add volumes: holds read_write only on what it creates. */
  adder: { token: 'test-adder', scopes: '*', grants: ['add_volumes'], restricted: true },
  /** Restricted, may add volumes and holds read_write on every volume. */
  volumeKeeper: { token: 'test-volume-keeper', scopes: '*', grants: ['add_volumes', 'volume:read_write'], restricted: true },
} as const;
export type TokenName = keyof typeof TOKENS;

/** A new folder inside the run's temp folder (global-temp.ts), which the run's end removes. */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(inject('tempRoot') ?? os.tmpdir(), `cloudapi-server-${prefix}-`));
}

export function writeTokensFile(dir: string, entries: object[] = Object.values(TOKENS)): string {
  const file = path.join(dir, 'tokens.json');
  writeFileSync(file, JSON.stringify(entries, null, 2));
  return file;
}

/** The URL of the run's PostgreSQL server (its `postgres` database), from the global set-up. */
function postgresAdminUrl(): string {
  const provided = inject('postgres');
  if (!provided?.url) throw new Error(provided?.error ?? 'The postgres project\'s global set-up did not run (test/harness/global-postgres.ts)');
  return provided.url;
}

/** The URL of a new, empty database of its own on the run's PostgreSQL. */
export async function postgresUrl(hint: string): Promise<string> {
  return createDatabase(postgresAdminUrl(), hint);
}

/** A clock tests move by hand. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(transitionMs = 0): TestClock {
  let offset = 0;
  return { now: () => Date.now() + offset, transitionMs, advance: (ms) => { offset += ms; } };
}

/** Runs `work` with the clock's transitions taking `ms`, then back to 0. */
export async function withTransitions<T>(clock: TestClock, ms: number, work: () => Promise<T>): Promise<T> {
  clock.transitionMs = ms;
  try {
    return await work();
  } finally {
    clock.transitionMs = 0;
  }
}

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  query?: Record<string, string | number>;
  body?: unknown;
  /** Raw body (sent as is, with the given content type). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export class Api {
  constructor(readonly baseUrl: string, readonly token: string | null) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) headers.authorization ??= `Bearer ${this.token}`;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON */ }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }

  get<T = any>(path: string, options?: RequestOptions) { return this.request<T>('GET', path, options); }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) { return this.request<T>('POST', path, { ...options, body }); }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) { return this.request<T>('PUT', path, { ...options, body }); }
  delete<T = any>(path: string, options?: RequestOptions) { return this.request<T>('DELETE', path, options); }
}

export interface TestServer {
  engine: Engine;
  server: RunningServer;
  baseUrl: string;
  url: string;
  /** Options it was started with (restart reuses them). */
  options: ServerOptions;
  /** Requests as the standard token `name`, with another token string, or with none (null). */
  as(who: TokenName | null | { token: string }): Api;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions extends Partial<ServerOptions> {
  /** Tokens file entries (default: TOKENS). */
  tokens?: object[];
  /** Used in the PostgreSQL database name. */
  name?: string;
}

/**
 * A store of its own for a new server on this engine: a temporary DATA_DIR, and on PostgreSQL a
 * new database, so that test files and the servers within them never share data.
 */
export async function storeOptions(name: string): Promise<Pick<ServerOptions, 'dataDir' | 'databaseUrl'>> {
  const dataDir = tempDir(name);
  if (engine === 'postgres') return { dataDir, databaseUrl: await postgresUrl(name) };
  return { dataDir };
}

/** The same with every area's tables made already: a copy of a store migrated once (store-templates.ts). */
async function migratedStoreOptions(name: string): Promise<Pick<ServerOptions, 'dataDir' | 'databaseUrl'>> {
  const dataDir = tempDir(name);
  const scratch = () => tempDir('template');
  if (engine === 'postgres') return { dataDir, databaseUrl: await migratedDatabase(postgresAdminUrl(), name, scratch) };
  await migratedSqliteFile(dataDir, scratch);
  return { dataDir };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { tokens, name = 'server', ...rest } = options;
  // A server of every area starts on a copy of a store with their tables made; one of other
  // areas makes its own.
  const copied = !(rest.dataDir || rest.databaseUrl || rest.areas);
  const store = rest.dataDir || rest.databaseUrl ? {} : copied ? await migratedStoreOptions(name) : await storeOptions(name);
  const dir = tempDir('tokens');
  const serverOptions: ServerOptions = {
    port: 0,
    host: '127.0.0.1',
    tokensFile: writeTokensFile(dir, tokens),
    transitionMs: 0,
    logLevel: 'silent',
    poolSize: 4,
    ...store,
    ...rest,
  };
  let server = await startServer(serverOptions);
  if (copied) await giveOwnSigningSecret(server.store.db);
  const handle: TestServer = {
    engine,
    get server() { return server; },
    get baseUrl() { return server.baseUrl; },
    get url() { return server.url; },
    options: serverOptions,
    as(who) {
      const token = who === null ? null : typeof who === 'string' ? TOKENS[who].token : who.token;
      return new Api(server.baseUrl, token);
    },
    async restart() {
      await server.close();
      server = await startServer(serverOptions);
    },
    close: () => server.close(),
  };
  return handle;
}

// ---- The server as a separate process (crash, scale and command-line tests) -------------------

export const binPath = path.join(packageDir, 'bin/cloudapi-server.mjs');

export function requireBuilt(): void {
  if (!existsSync(path.join(packageDir, 'dist/cli.js'))) {
    throw new Error('These tests run the built server (dist/cli.js): run `npm run build -w @cloudapi/server` first (`npm test` builds it).');
  }
}

export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the base URL once the server says it serves (rejects if it exits first). */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first match of `pattern` in the output (rejects if the server exits first). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
}

export function spawnServer(env: Record<string, string>, args: string[] = []): ServerProcess {
  requireBuilt();
  const child = spawn(process.execPath, [binPath, ...args], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', TRANSITION_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // 'close': the process has exited and its output has been read to the end.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /serving (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk) => { output += chunk; });
    exited.then(({ code, signal }) => reject(new Error(`the server exited (code ${code}, signal ${signal}) before serving:\n${output}`)));
  });
  ready.catch(() => {});
  const waitFor = async (pattern: RegExp) => {
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited before printing ${pattern}:\n${output}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, output: () => output, ready, exited, waitFor };
}

/**
 * Server processes sharing one new PostgreSQL database (as a deployment that outgrew one machine
 * runs them), each with a DATA_DIR of its own and the standard tokens: for tests of races between
 * processes (`*.postgres.test.ts`).
 */
export async function spawnServersOnOnePostgres(name: string, count = 2): Promise<{ urls: string[]; processes: ServerProcess[]; stop(): Promise<void> }> {
  if (engine !== 'postgres') throw new Error('spawnServersOnOnePostgres needs the postgres project: name the file *.postgres.test.ts');
  const databaseUrl = await postgresUrl(name);
  const tokensFile = writeTokensFile(tempDir(`${name}-tokens`));
  const processes = Array.from({ length: count }, (_, i) => spawnServer({ DATA_DIR: tempDir(`${name}-${i}`), DATABASE_URL: databaseUrl, TOKENS_FILE: tokensFile }));
  const urls = await Promise.all(processes.map((p) => p.ready));
  return {
    urls,
    processes,
    async stop() {
      for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
      await Promise.all(processes.map((p) => p.exited));
    },
  };
}
