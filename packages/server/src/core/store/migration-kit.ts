// Helpers for migrations that must mean the same on SQLite and PostgreSQL.
import { sql } from 'kysely';
import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from './kind.js';

/** An integer primary key the engine assigns: `integer … autoincrement` or `serial`. */
export function withIdColumn<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>, column = 'id'): CreateTableBuilder<T, any> {
  return isPostgres(db)
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * The columns of a state that advances on the clock (see core/clock.ts): the state now, the
 * one it moves to, and when (epoch ms; null when it stays).
 */
export function withStateColumns<T extends string>(table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return table
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('next_status', 'text')
    .addColumn('transition_at', 'bigint');
}

/**
 * On SQLite, a table keyed only by its primary key (a link table) stored as that key's B-tree
 * (`WITHOUT ROWID`): one B-tree write per row instead of two. PostgreSQL has no such option.
 */
export function keyedOnly<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return isPostgres(db) ? table : table.modifyEnd(sql`without rowid`);
}

/** A CHECK condition: the column holds one of `values`. */
export function valueIn(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}

export { sql };
