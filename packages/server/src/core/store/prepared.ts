// Queries built and compiled once per engine, then run with new arguments: building and
// compiling a Kysely query costs as much as running a point read, so the reads every request of
// an area makes (an object by id) are worth preparing.
//
//   const volumeById = prepared((db, id: number) => selectVolumes(db).where('volumes.id', '=', id));
//   const row = (await volumeById(ctx.db, 12))[0];
//
// `build` must use each argument as a value (a parameter of the compiled SQL), not to choose the
// query's shape: the first call checks that every argument became a parameter. Only the number
// of arguments may shape it (rows of a multi-row insert, one per rest argument):
//
//   const insertTags = prepared((db, now: number, ...labels: string[]) =>
//     db.insertInto('tags').values(labels.map((label) => ({ label, created: now }))));
//
// the query is compiled once per engine and number of arguments. On SQLite the statement runs at
// once on the connection when it is free (no promise hops through Kysely's executor and
// connection lock); otherwise, and on PostgreSQL, through Kysely.
import { CompiledQuery } from 'kysely';
import type { Compilable, InsertQueryBuilder, Kysely } from 'kysely';
import { isPostgres } from './db.js';
import { immediateRunner } from './sqlite.js';
import type { ImmediateResult } from './sqlite.js';

const marker = (i: number) => `\u0000prepared-argument-${i}\u0000`;

interface Template {
  sql: string;
  parameters: readonly unknown[];
  /** For each parameter: the argument that fills it, or -1 to keep the compiled value. */
  slots: number[];
}

type Build<A extends unknown[]> = (db: Kysely<any>, postgres: boolean, ...args: A) => Compilable<unknown>;

/**
 * Compiles `build` once per engine and number of arguments; runs it with each call's arguments
 * (at once where SQLite's connection is free, else through Kysely).
 */
function compiledOnce<A extends unknown[]>(build: Build<A>): (db: Kysely<any>, ...args: A) => ImmediateResult | Promise<ImmediateResult> {
  // By engine (SQLite, PostgreSQL), then by number of arguments.
  const templates: [Template[], Template[]] = [[], []];
  return (db, ...args) => {
    const postgres = isPostgres(db);
    const forEngine = templates[postgres ? 1 : 0];
    let template = forEngine[args.length];
    if (!template) {
      const markers = args.map((_, i) => marker(i));
      const compiled = build(db, postgres, ...(markers as unknown as A)).compile();
      const slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith('\u0000prepared-argument-') ? markers.indexOf(p) : -1));
      markers.forEach((m, i) => {
        if (!slots.includes(i)) throw new Error(`prepared query: argument ${i} is not used as a value of the query (${compiled.sql})`);
        if (compiled.sql.includes(m)) throw new Error(`prepared query: argument ${i} was written into the SQL text`);
      });
      template = { sql: compiled.sql, parameters: compiled.parameters, slots };
      forEngine[args.length] = template;
    }
    const { sql, parameters, slots } = template;
    const values = parameters.map((value, i) => (slots[i]! >= 0 ? args[slots[i]!] : value));
    const immediate = immediateRunner(db);
    if (immediate) return immediate(sql, values);
    return db.executeQuery(CompiledQuery.raw(sql, values))
      .then((result) => ({ rows: result.rows, insertId: result.insertId === undefined ? undefined : Number(result.insertId) }));
  };
}

export function prepared<A extends unknown[], O>(build: (db: Kysely<any>, ...args: A) => Compilable<O>): (db: Kysely<any>, ...args: A) => Promise<O[]> {
  const run = compiledOnce<A>((db, _postgres, ...args) => build(db, ...args));
  return async (db, ...args) => (await run(db, ...args)).rows as O[];
}

/**
 * A prepared INSERT of one row into a table with an `id` key, answering the new id: RETURNING id
 * on PostgreSQL; on SQLite the connection's last rowid, as SQLite runs every RETURNING through a
 * temporary table, which costs more than the insert itself.
 */
export function preparedInsert<A extends unknown[]>(build: (db: Kysely<any>, ...args: A) => InsertQueryBuilder<any, any, any>): (db: Kysely<any>, ...args: A) => Promise<number> {
  const run = compiledOnce<A>((db, postgres, ...args) => (postgres ? build(db, ...args).returning('id') : build(db, ...args)));
  return async (db, ...args) => {
    const { rows, insertId } = await run(db, ...args);
    const id = rows.length ? (rows[0] as { id: number }).id : insertId;
    if (id === undefined) throw new Error('prepared insert: the database answered no id');
    return id;
  };
}
