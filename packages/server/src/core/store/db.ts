// The store: one Kysely query layer over an embedded SQLite file (better-sqlite3, the default) or
// a PostgreSQL server (pg, with DATABASE_URL). Handlers see the same typed API on both.
import { Kysely } from 'kysely';
import { PageCache } from './page-cache.js';
import type { PageCacheBounds } from './page-cache.js';
import { openPostgres } from './postgres.js';
import type { Database as Tables } from './schema.js';
import { openSqlite } from './sqlite.js';
import { dataVersionReader } from './version.js';

// Node-free, for the code the browser engine runs too (kind.ts); kept here for the server's callers.
export { forUpdate, isPostgres } from './kind.js';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Tables>;
/** The connection of a request's transaction (a Kysely transaction, or the SQLite connection inside the write's savepoint). */
export type Trx = Kysely<Tables>;

export interface Store {
  db: Db;
  engine: Engine;
  /** Where the data lives, for start-up lines: the SQLite file or the PostgreSQL URL without password. */
  location: string;
  /**
   * Runs `work` as one transaction: every write of a request commits together or not at all, and
   * the promise settles once that is on disk (on SQLite, a savepoint of a group commit).
   */
  write<T>(work: (trx: Trx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Rendered list pages, kept while the data stays the same (page-cache.ts); none when the engine cannot tell that. */
  pages?: PageCache;
}

export interface StoreOptions {
  /** `postgres://…`: use that PostgreSQL server; otherwise SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL connections per process (default 10). */
  poolSize?: number;
  /** Bounds of the rendered pages kept (page-cache.ts); `false` keeps none. */
  pageCache?: Partial<PageCacheBounds> | false;
}

/** The store's page cache, when its engine tells its data version and the cache is wanted. */
function pageCacheOf(db: Db, bounds: StoreOptions['pageCache']): PageCache | undefined {
  const version = dataVersionReader(db);
  return version && bounds !== false ? new PageCache(version, bounds) : undefined;
}


export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    const postgres = await openPostgres(options.databaseUrl, options.poolSize);
    return { ...postgres, engine: 'postgres', pages: pageCacheOf(postgres.db, options.pageCache) };
  }

  const sqlite = await openSqlite(options.dataDir);
  return {
    db: sqlite.db,
    engine: 'sqlite',
    location: sqlite.location,
    // Group commit (see openSqlite): BEGIN IMMEDIATE takes the write lock first, so another
    // process on the same file waits (busy_timeout) instead of failing when its read turns into
    // a write.
    write: sqlite.write,
    close: sqlite.close,
    pages: pageCacheOf(sqlite.db, options.pageCache),
  };
}
