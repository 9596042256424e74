// @cloudapi/server/engine: the reference server without its HTTP server, for a browser (and for
// Mock Service Worker in Node): every area, its rules, migrations and queries, the same request
// checks, tokens and serializers, on SQLite compiled to WebAssembly (sql.js) held in memory.
// `handle()` takes a request and gives the answer the server would give; @cloudapi/msw's stateful
// mode is built on it. This entry imports no Node built-in (its build checks, see
// test/unit/engine-build.test.ts): platform/browser.ts stands in for platform/node.ts there.
import initSqlJs from 'sql.js/dist/sql-wasm-browser.js';
import wasmBinary from 'sql.js/dist/sql-wasm-browser.wasm';
import * as registeredAreas from './areas/index.js';
import { TokenTable } from './core/access.js';
import type { AuthContext, TokenEntry } from './core/access.js';
import { loadCatalogue } from './core/catalogue.js';
import { systemClock } from './core/clock.js';
import type { Clock } from './core/clock.js';
import { createDispatcher } from './core/dispatch/engine.js';
import type { EngineAnswer, EngineRequest } from './core/dispatch/engine.js';
import { buildRegistry } from './core/registry.js';
import { describeBundle } from './core/spec.js';
import { migrate } from './core/store/migrations.js';
import { openSqlJsStore } from './core/store/sqljs.js';
import type { SqlJsStatic, SqlJsStore } from './core/store/sqljs.js';
import { offlineSandbox } from './sandbox/sandbox.js';

export type { EngineAnswer, EngineRequest, TokenEntry };

export interface EngineOptions {
  /** The spec's bundle (the OpenAPI document the server describes itself from). */
  document: object;
  /** How long a transitional state lasts (`creating` → `active`), in ms; 0 makes it immediate. Default 2000, as the server's `TRANSITION_MS`. */
  transitionMs?: number;
  /** Another clock (tests move time); its `transitionMs` wins. */
  clock?: Clock;
  /** `any` (the default): any bearer token is a full-access token. Or the entries of a tokens file, checked as the server checks them. */
  tokens?: 'any' | TokenEntry[];
  /** A database `exportDatabase()` gave earlier: start from it instead of the first state. */
  database?: Uint8Array;
  /** The origin of answers' absolute URLs when a request's URL is relative. Default `http://localhost`. */
  origin?: string;
}

export interface Engine {
  /** The server URL's path, `/v4`. */
  basePath: string;
  /** The answer the reference server gives to `request`. */
  handle(request: EngineRequest): Promise<EngineAnswer>;
  /** Back to the first state: no objects, ids from 1 again. */
  reset(): Promise<void>;
  /** The database's bytes (a SQLite file): keep them to start again from here (`database`). */
  exportDatabase(): Promise<Uint8Array>;
  close(): Promise<void>;
}

let sqlJs: Promise<SqlJsStatic> | null = null;
const loadSqlJs = () => (sqlJs ??= initSqlJs({ wasmBinary }));

/** A token table that takes any token as a full-access one (the mock's way), or the listed ones. */
function tokenTable(tokens: EngineOptions['tokens'], spec: ReturnType<typeof describeBundle>): Pick<TokenTable, 'lookup'> {
  const table = new TokenTable();
  if (tokens && tokens !== 'any') {
    tokens.forEach((entry, index) => table.add(entry, spec, `tokens: entry ${index}`));
    return table;
  }
  return { lookup: (token: string): AuthContext => table.lookup(token) ?? table.add({ token, scopes: '*', grants: 'all', restricted: false }) };
}

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const SQL = await loadSqlJs();
  const spec = describeBundle(options.document);
  const registry = buildRegistry(Object.values(registeredAreas));
  const tokens = tokenTable(options.tokens, spec);
  const clock = options.clock ?? systemClock(options.transitionMs ?? 2000);
  const catalogue = loadCatalogue();
  const sandbox = offlineSandbox();

  const fresh = openSqlJsStore(SQL);
  await migrate(fresh.db, registry.migrations);
  const firstState = await fresh.export();
  await fresh.close();

  let store: SqlJsStore;
  let dispatch: (request: EngineRequest) => Promise<EngineAnswer>;
  // A new store (and Kysely instance) each time: caches kept per instance never see another state.
  const open = async (bytes: Uint8Array) => {
    store = openSqlJsStore(SQL, bytes);
    await migrate(store.db, registry.migrations);
    dispatch = createDispatcher({ spec, handlers: registry.handlers, tokens, deps: { store, clock, catalogue, services: registry.services, sandbox }, origin: options.origin ?? 'http://localhost' });
  };
  await open(options.database ?? firstState);

  return {
    basePath: spec.basePath,
    handle: (request) => dispatch(request),
    reset: async () => {
      const previous = store;
      await open(firstState);
      await previous.close();
    },
    exportDatabase: () => store.export(),
    close: () => store.close(),
  };
}
