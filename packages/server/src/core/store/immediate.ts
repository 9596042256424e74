// Running compiled SQL at once, without Kysely's executor: the registries the SQLite store
// (sqlite.ts) and the PostgreSQL store (postgres.ts) fill and prepared queries and pagination read. No driver and no
// Node built-in here, so the browser engine's modules can import it (its store registers nothing
// and its queries go through Kysely).
import type { Kysely } from 'kysely';

/** What a statement answers: its rows (a reader) or the rowid it inserted last (a writer). */
export interface ImmediateResult {
  rows: unknown[];
  insertId?: number;
}

/** A synchronous runner of compiled SQL on a SQLite connection, for prepared queries. */
export type ImmediateRunner = (sql: string, parameters: readonly unknown[]) => ImmediateResult;

// The SQLite stores' own Kysely instances, each with the runner it may use now or null.
export const runners = new WeakMap<Kysely<any>, () => ImmediateRunner | null>();
// The connections of the batches of writes running now. A Map, emptied as each batch ends: a
// WeakMap entry per batch made every scavenge of the young generation slow (its keys die young).
export const batchRunners = new Map<Kysely<any>, ImmediateRunner>();

/**
 * How to run compiled SQL on `db` right now, synchronously, without Kysely's executor; null when
 * `db` is not a SQLite store's or its connection is inside another request's transaction (the
 * query must then wait its turn through Kysely).
 */
export function immediateRunner(db: Kysely<any>): ImmediateRunner | null {
  const forStore = runners.get(db);
  return forStore ? forStore() : batchRunners.get(db) ?? null;
}

// The SQLite stores' own Kysely instances: the names of the columns a SELECT answers.
export const columnReaders = new WeakMap<Kysely<any>, (sql: string) => string[]>();

/** The names of the columns `sql` (a SELECT) answers on `db`, or null when `db` is not a SQLite store's. */
export function columnNames(db: Kysely<any>, sql: string): string[] | null {
  return columnReaders.get(db)?.(sql) ?? null;
}

/** A function making a row object of the values of these columns, in order. */
export function rowMaker(names: readonly string[]): (values: readonly unknown[]) => Record<string, unknown> {
  // Computed keys: every name (even `__proto__`) becomes an own property, as with .all().
  return new Function('values', `return { ${names.map((name, i) => `[${JSON.stringify(name)}]: values[${i}]`).join(', ')} };`) as (values: readonly unknown[]) => Record<string, unknown>;
}

/** Runs compiled SQL on a PostgreSQL store's own connections, outside any transaction (postgres-reads.ts); `long` for a scan. */
export type PostgresRunner = (sql: string, parameters: readonly unknown[], long?: boolean) => Promise<ImmediateResult>;

// The PostgreSQL stores' own Kysely instances (not their transactions): how to run SQL outside a transaction.
export const postgresRunners = new WeakMap<Kysely<any>, PostgresRunner>();

/** How to run compiled SQL on `db` at once, or null when `db` is not a PostgreSQL store's own instance (a transaction, or SQLite). */
export function postgresRunner(db: Kysely<any>): PostgresRunner | null {
  return postgresRunners.get(db) ?? null;
}
