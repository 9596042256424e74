// Which engine a Kysely instance talks to, and what differs by engine in a query. No driver and
// no Node built-in here: the areas and the browser engine (src/engine.ts) import this, not db.ts.
import { PostgresAdapter } from 'kysely';
import type { Kysely, SelectQueryBuilder } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * `SELECT … FOR UPDATE` on PostgreSQL: the rows stay locked until the transaction ends, so a
 * read-then-write (counting the last free slot) cannot race another process. SQLite write
 * transactions start with BEGIN IMMEDIATE and never interleave, so nothing is added there.
 */
export function forUpdate<Q extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: Q): Q {
  return (isPostgres(db) ? query.forUpdate() : query) as Q;
}
