// The browser engine's store: SQLite compiled to WebAssembly (sql.js) behind Kysely's own SQLite
// dialect, so the areas run the same queries and migrations as on the server's embedded SQLite.
// The database lives in memory; `export()` gives its bytes (persistence across page loads, the
// first state a reset returns to) and a store opens from such bytes.
import { Kysely, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { rowMaker } from './immediate.js';
import type { Store } from './db.js';
import type { Database as Tables } from './schema.js';

/** What this store uses of a sql.js statement. */
interface SqlJsStatement {
  bind(values?: unknown[]): boolean;
  step(): boolean;
  get(): unknown[];
  getColumnNames(): string[];
  reset(): void;
  free(): boolean;
}

/** What this store uses of a sql.js database. */
export interface SqlJsDatabase {
  prepare(sql: string): SqlJsStatement;
  exec(sql: string): { columns: string[]; values: unknown[][] }[];
  run(sql: string): unknown;
  getRowsModified(): number;
  export(): Uint8Array;
  close(): void;
}

/** sql.js's module, as `initSqlJs()` resolves it. */
export interface SqlJsStatic {
  Database: new (data?: ArrayLike<number> | Uint8Array | null) => SqlJsDatabase;
}

export interface SqlJsStore extends Store {
  /** The database's bytes (a SQLite file), taken between transactions. */
  export(): Promise<Uint8Array>;
}

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\s/i;
const CACHED_STATEMENTS = 500;

/**
 * sql.js as Kysely's SQLite dialect sees a database (better-sqlite3's shape): a statement per SQL
 * text, kept (sql.js statements hold WebAssembly memory until freed); rows made with computed
 * keys, so that a column named `__proto__` is an own property as on the server.
 */
function asKyselyDatabase(database: SqlJsDatabase): SqliteDatabase & { forgetStatements(): void } {
  const cache = new Map<string, { statement: SqlJsStatement; toRow: ((values: readonly unknown[]) => Record<string, unknown>) | null }>();
  const lastInsertRowid = () => Number(database.exec('select last_insert_rowid()')[0]?.values[0]?.[0] ?? 0);
  const entryOf = (source: string) => {
    let entry = cache.get(source);
    if (!entry) {
      if (SCHEMA_CHANGE.test(source)) {
        for (const { statement } of cache.values()) statement.free();
        cache.clear();
      }
      const statement = database.prepare(source);
      const names = statement.getColumnNames();
      entry = { statement, toRow: names.length ? rowMaker(names) : null };
      if (cache.size >= CACHED_STATEMENTS) {
        const [oldest] = cache;
        oldest![1].statement.free();
        cache.delete(oldest![0]);
      }
      cache.set(source, entry);
    }
    return entry;
  };
  const rowsOf = (source: string, parameters: readonly unknown[]) => {
    const { statement, toRow } = entryOf(source);
    try {
      statement.bind([...parameters]);
      const rows: Record<string, unknown>[] = [];
      while (statement.step()) rows.push(toRow!(statement.get()));
      return rows;
    } finally {
      statement.reset();
    }
  };
  return {
    // sql.js's export() frees every statement and opens the database again.
    forgetStatements: () => cache.clear(),
    close: () => {
      for (const { statement } of cache.values()) statement.free();
      cache.clear();
      database.close();
    },
    prepare(source): SqliteStatement {
      const reader = entryOf(source).toRow !== null;
      return {
        reader,
        all: (parameters) => rowsOf(source, parameters),
        run: (parameters) => {
          const { statement } = entryOf(source);
          try {
            statement.bind([...parameters]);
            while (statement.step()) { /* a writer answers no rows */ }
          } finally {
            statement.reset();
          }
          return { changes: database.getRowsModified(), lastInsertRowid: lastInsertRowid() };
        },
        *iterate(parameters) {
          yield* rowsOf(source, parameters);
        },
      };
    },
  };
}

/** A store on a new in-memory database, or on the bytes of one (`export()`'s). */
export function openSqlJsStore(SQL: SqlJsStatic, bytes?: Uint8Array): SqlJsStore {
  const database = new SQL.Database(bytes ?? null);
  const connection = asKyselyDatabase(database);
  // As the server's SQLite connection (sqlite.ts); set again after each export, which reopens.
  const configure = () => database.run('pragma foreign_keys = on');
  configure();
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: connection }) });
  return {
    db,
    engine: 'sqlite',
    location: 'memory (sql.js)',
    // One transaction per request's writes: Kysely's single connection keeps other queries out
    // until it ends, as the server's group commit does.
    write: (work) => db.transaction().execute(work),
    // On the connection, so that no request's transaction is open while the database reopens.
    export: () => db.connection().execute(async () => {
      connection.forgetStatements();
      const bytes = database.export();
      configure();
      return bytes;
    }),
    close: () => db.destroy(),
  };
}
