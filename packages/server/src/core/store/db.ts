// The store: one Kysely query layer over an embedded SQLite file (better-sqlite3, the default) or
// a PostgreSQL server (pg, with DATABASE_URL). Handlers see the same typed API on both.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import type { Transaction } from 'kysely';
import type { Pool } from 'pg';
import type { Database as Tables } from './schema.js';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Tables>;
export type Trx = Transaction<Tables>;

export interface Store {
  db: Db;
  engine: Engine;
  /** Where the data lives, for start-up lines: the SQLite file or the PostgreSQL URL without password. */
  location: string;
  /** Runs `work` as one transaction: every write of a request commits together or not at all. */
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

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
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

  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'cloudapi.sqlite');
  const { default: Database } = await import('better-sqlite3');
  let database: BetterSqlite3.Database;
  try {
    database = new Database(file);
    // WAL: readers never wait for the writer; NORMAL: a commit survives a crash of this process
    // (not of the machine), at a fraction of FULL's cost.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
  } catch (error) {
    throw new Error(`the SQLite database ${file} cannot be opened: ${(error as Error).message}`);
  }
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database }) });
  return {
    db,
    engine: 'sqlite',
    location: file,
    // One connection and Kysely's mutex: transactions of one process never interleave.
    write: (work) => db.transaction().execute(work),
    close: () => db.destroy(),
  };
}
