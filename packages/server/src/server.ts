// Starting and stopping the reference server: bundle → registry of areas → tokens → store and
// migrations → HTTP app → listening. Every failure before listening is a StartupError whose
// message is one line that says what to do.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import * as registeredAreas from './areas/index.js';
import { areaRoutes } from './areas/routes.js';
import type { Area } from './core/area.js';
import { defaultToken, loadTokensFile, TokenTable } from './core/auth.js';
import { loadCatalogue } from './core/catalogue.js';
import { systemClock } from './core/clock.js';
import type { Clock } from './core/clock.js';
import { buildApp } from './core/http/app.js';
import type { RunningServer as PublicRunningServer, ServerOptions as PublicServerOptions } from './options.js';
import { parseFaults } from '@cloudapi/spec/faults';
import { parseAllowedHosts, parseCorsOrigins } from '@cloudapi/spec/trust';
import { namesIn, secureDataDir, secureFiles, sqliteFiles, tokensFileWarning } from './core/data-files.js';
import { parseRateLimit } from './core/http/rate-limit.js';
import { buildRegistry } from './core/registry.js';
import { describeBundleFile } from './core/spec-file.js';
import type { ApiSpec } from './core/spec.js';
import { openStore } from './core/store/db.js';
import type { Store, StoreOptions } from './core/store/db.js';
import { migrate } from './core/store/migrations.js';
import { startSandbox } from './sandbox/index.js';
import type { RunningSandbox } from './sandbox/index.js';

export class StartupError extends Error {}

/** How long a stop waits for requests in flight before cutting their connections. */
const CLOSE_GRACE_MS = 30_000;

export interface ServerOptions extends PublicServerOptions {
  /** Another clock (tests move time); its transitionMs wins over `transitionMs`. */
  clock?: Clock;
  /** Areas to serve (default: every registered area). */
  areas?: Area[];
  /** Bounds of the rendered list pages kept (core/store/page-cache.ts), or false to keep none. */
  pageCache?: StoreOptions['pageCache'];
}

export interface RunningServer extends PublicRunningServer {
  store: Store;
  spec: ApiSpec;
  app: FastifyInstance;
  /** The world outside the account and its name server (`sandbox.dnsPort`). */
  sandbox: RunningSandbox;
}

/** The repository root (the folder whose package.json has workspaces), or the working directory. */
export function repositoryRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (JSON.parse(readFileSync(manifest, 'utf8')).workspaces) return dir;
      } catch { /* not a manifest we can read: keep looking */ }
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return process.cwd();
}

/** True when this module runs from an installed copy (inside node_modules), not from the repository. */
const installed = () => fileURLToPath(import.meta.url).split(path.sep).includes('node_modules');

/**
 * Where the data lives by default: `.data/server` at the repository root when the server runs from
 * this repository; `.cloudapi/server` in the working folder when it runs from an installed package
 * (a user's project has no repository root of ours, and may have workspaces of its own).
 */
export const defaultDataDir = () => (installed()
  ? path.join(process.cwd(), '.cloudapi', 'server')
  : path.join(repositoryRoot(), '.data', 'server'));

const fail = (message: string): never => {
  throw new StartupError(message);
};

/**
 * The tokens the server takes: TOKENS_FILE's (warned about when others can read it), or one
 * full-access token it makes and keeps in DATA_DIR. DATA_DIR, which also holds the SQLite files,
 * is made 0700 and the token 0600; `notices` gets what was narrowed or is warned about.
 */
function loadTokens(options: ServerOptions, spec: ApiSpec, dataDir: string, notices: string[]): { tokens: TokenTable; generated: { token: string; file: string } | null } {
  if (!options.tokensFile || !options.databaseUrl) notices.push(...secureDataDir(dataDir));
  if (options.tokensFile) {
    const file = path.resolve(options.tokensFile);
    const tokens = loadTokensFile(file, spec);
    const warning = tokensFileWarning(file);
    if (warning) notices.push(warning);
    return { tokens, generated: null };
  }
  notices.push(...secureFiles([path.join(dataDir, 'token')]));
  const generated = defaultToken(dataDir);
  const tokens = new TokenTable();
  tokens.add({ token: generated.token, scopes: '*', grants: 'all', restricted: false }, spec);
  return { tokens, generated };
}

/** The store, its SQLite files 0600 (`notices` tells those found wider, not those this start made). */
async function openSecuredStore(options: ServerOptions, dataDir: string, notices: string[]): Promise<Store> {
  const found = namesIn(dataDir);
  const store = await openStore({ databaseUrl: options.databaseUrl, dataDir, poolSize: options.poolSize, pageCache: options.pageCache });
  try {
    if (store.engine === 'sqlite') notices.push(...secureFiles(sqliteFiles(store.location), (file) => found.has(path.basename(file))));
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  return store;
}

/** What a step throws, as a StartupError with its message (the step's own words say what to do). */
function attempt<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** The settings read from the options, each refused with a line that says what to do. */
function readSettings(options: ServerOptions) {
  if (options.transitionMs !== undefined && !(Number.isInteger(options.transitionMs) && options.transitionMs >= 0)) {
    fail(`TRANSITION_MS must be a whole number of milliseconds (0 or more), got ${options.transitionMs}`);
  }
  const trust = attempt(() => ({ corsOrigins: parseCorsOrigins(options.corsOrigins ?? []), allowedHosts: parseAllowedHosts(options.allowedHosts ?? []) }));
  const spec = attempt(() => describeBundleFile(options.bundleFile));
  const traffic = attempt(() => ({ faults: parseFaults(options.faults, { operations: spec.byId.keys() }), rateLimit: parseRateLimit(options.rateLimit) }));
  const registry = attempt(() => {
    try {
      return buildRegistry(options.areas ?? Object.values(registeredAreas));
    } catch (error) {
      throw new Error(`the server's areas do not fit together: ${(error as Error).message}`);
    }
  });
  return { port: options.port ?? 4020, host: options.host ?? '127.0.0.1', dataDir: path.resolve(options.dataDir ?? defaultDataDir()), trust, spec, traffic, registry };
}

/** The store, opened (file modes narrowed) and migrated to the areas' latest tables. */
async function openMigratedStore(options: ServerOptions, dataDir: string, migrations: Parameters<typeof migrate>[1], notices: string[]): Promise<Store> {
  let store: Store;
  try {
    store = await openSecuredStore(options, dataDir, notices);
  } catch (error) {
    return fail((error as Error).message);
  }
  try {
    await migrate(store.db, migrations);
  } catch (error) {
    await store.close().catch(() => {});
    return fail(`the database at ${store.location} could not be brought up to date: ${(error as Error).message}`);
  }
  return store;
}

/** The sandbox (the world outside the account and its name server); the store is closed if it cannot start. */
async function startSandboxBeside(store: Store, dnsPort: number): Promise<RunningSandbox> {
  try {
    return await startSandbox({ dnsPort });
  } catch (error) {
    await store.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return fail(`SANDBOX_DNS_PORT ${dnsPort} on 127.0.0.1 is already in use: stop what uses it or set SANDBOX_DNS_PORT to another port (0 picks a free one)`);
    if (code === 'EACCES') return fail(`SANDBOX_DNS_PORT ${dnsPort} needs privileges this process lacks: set it to a port above 1023 (0 picks a free one)`);
    return fail(`the sandbox's name server could not start: ${(error as Error).message}`);
  }
}

/** Listens; on failure everything started is stopped and the cause told as what to change. */
async function listen(app: FastifyInstance, port: number, host: string, started: Array<{ close(): Promise<unknown> }>): Promise<{ url: string; port: number }> {
  try {
    await app.listen({ port, host });
  } catch (error) {
    for (const part of [app, ...started]) await part.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return fail(`port ${port} on ${host} is already in use: stop what uses it or set PORT to another port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return fail(`HOST ${host} is not an address of this machine`);
    if (code === 'EACCES') return fail(`port ${port} on ${host} needs privileges this process lacks: set PORT to a port above 1023`);
    return fail(`the server could not listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`, port: actualPort };
}

/**
 * Stops the server: requests in flight finish; connections they leave idle (keep-alive) are closed
 * as they become idle, and any still open after the grace period are cut.
 */
async function stopServing(app: FastifyInstance, sandbox: RunningSandbox, store: Store): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  const cut = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
  await sandbox.close();
  await store.close();
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port, host, dataDir, trust, spec, traffic, registry } = readSettings(options);
  // What the start changed or warns about (file modes), told by the bin and `npm start`.
  const notices: string[] = [];
  const { tokens, generated } = attempt(() => loadTokens(options, spec, dataDir, notices));
  const store = await openMigratedStore(options, dataDir, registry.migrations, notices);
  const sandbox = await startSandboxBeside(store, options.sandboxDnsPort ?? 0);
  const deps = { store, clock: options.clock ?? systemClock(options.transitionMs ?? 2000), catalogue: loadCatalogue(), services: registry.services };
  const app = await buildApp({
    spec,
    handlers: registry.handlers,
    tokens,
    ...deps,
    sandbox,
    logLevel: options.logLevel ?? 'info',
    logStream: options.logStream,
    ...trust,
    traffic,
    extraRoutes: registry.areas.flatMap((a) => {
      const routes = a.routes ?? areaRoutes[a.name];
      return routes ? [(instance: FastifyInstance) => routes(instance, deps)] : [];
    }),
  });
  const { url, port: boundPort } = await listen(app, port, host, [sandbox, store]);
  let closing: Promise<void> | null = null;
  return {
    url,
    baseUrl: `${url}${spec.basePath}`,
    port: boundPort,
    token: generated?.token ?? null,
    tokenFile: generated?.file ?? null,
    notices,
    store,
    spec,
    app,
    sandbox,
    close: () => (closing ??= stopServing(app, sandbox, store)),
  };
}
