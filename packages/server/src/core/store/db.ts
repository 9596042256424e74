// The store: one Kysely query layer over an embedded SQLite file (better-sqlite3, the default) or
// a PostgreSQL server (pg, with DATABASE_URL). Handlers see the same typed API on both.
import { Kysely, PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
import type { Database as Tables } from './schema.js';
import { openSqlite } from './sqlite.js';

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
}

export interface StoreOptions {
  /** `postgres://…`: use that PostgreSQL server; otherwise SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL connections per process (default 10). */
  poolSize?: number;
}

/** A URL safe to print: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}


// A write that lost a race in PostgreSQL (serialization failure, deadlock) is retried whole.
const RETRYABLE = new Set(['40001', '40P01']);

export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    // Each engine's driver is loaded only when used.
    const { default: pg } = await import('pg');
    // PostgreSQL answers bigint (epoch ms) and count() as strings; both fit a JS number here.
    const pgTypes = {
      getTypeParser(oid: number, format?: any) {
        if (oid === 20) return (value: string) => Number(value);
        return pg.types.getTypeParser(oid, format);
      },
    };
    const location = redactUrl(options.databaseUrl);
    const pool: Pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, types: pgTypes, connectionTimeoutMillis: 10_000 });
    pool.on('error', () => {}); // an idle client's lost connection is reported by the next query
    try {
      const client = await pool.connect();
      client.release();
    } catch (error) {
      await pool.end().catch(() => {});
      throw new Error(`DATABASE_URL ${location} cannot be reached: ${(error as Error).message || (error as NodeJS.ErrnoException).code}`);
    }
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      engine: 'postgres',
      location,
      async write(work) {
        for (let attempt = 1; ; attempt++) {
          try {
            return await db.transaction().execute(work);
          } catch (error) {
            if (attempt >= 5 || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
          }
        }
      },
      close: () => db.destroy(),
    };
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
  };
}
