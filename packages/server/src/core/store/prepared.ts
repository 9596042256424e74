// Queries built and compiled once per engine, then run with new arguments: building and
// compiling a Kysely query costs as much as running a point read, so the reads every request of
// an area makes (an object by id) are worth preparing.
//
//   const volumeById = prepared((db, id: number) => db.selectFrom('volumes').selectAll().where('id', '=', id));
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
// connection lock); on PostgreSQL outside a transaction, as a named statement on a pipelined
// connection (postgres-reads.ts); otherwise through Kysely.
import { CompiledQuery } from 'kysely';
import type { Compilable, InsertQueryBuilder, Kysely } from 'kysely';
import { immediateRunner, postgresRunner } from './immediate.js';
import type { ImmediateResult } from './immediate.js';
import { isPostgres } from './kind.js';

// A value of the query (a list's X-Filter text, say) can never pass for a marker: they carry a
// secret of this process.
const MARKER_PREFIX = `\u0000prepared-argument-${globalThis.crypto.randomUUID()}-`;
/** The stand-in for argument `i` while a template is compiled. */
export const marker = (i: number) => `${MARKER_PREFIX}${i}\u0000`;

/** Shapes kept per query and engine (each number of arguments is a shape); the least recently used goes. */
export const MAX_TEMPLATES_PER_QUERY = 32;

export interface Template {
  sql: string;
  parameters: readonly unknown[];
  /** For each parameter: the argument that fills it, or -1 to keep the compiled value. */
  slots: number[];
  /** A read that may take long (a list's count or page): on PostgreSQL it runs on the pool, not pipelined. */
  long?: boolean;
}

type Build<A extends unknown[]> = (db: Kysely<any>, postgres: boolean, ...args: A) => Compilable<unknown>;

/** The compiled query as a template, checked in one pass over its parameters and one over its SQL. */
export function templateOf(compiled: { sql: string; parameters: readonly unknown[] }, count: number): Template {
  const index = new Map<unknown, number>();
  for (let i = 0; i < count; i++) index.set(marker(i), i);
  const used = new Uint8Array(count);
  const slots = compiled.parameters.map((p) => {
    const i = typeof p === 'string' ? index.get(p) : undefined;
    if (i === undefined) return -1;
    used[i] = 1;
    return i;
  });
  const unused = used.indexOf(0);
  if (unused >= 0) throw new Error(`prepared query: argument ${unused} is not used as a value of the query (${compiled.sql.slice(0, 200)})`);
  const written = compiled.sql.indexOf(MARKER_PREFIX);
  if (written >= 0) throw new Error(`prepared query: argument ${parseInt(compiled.sql.slice(written + MARKER_PREFIX.length), 10)} was written into the SQL text`);
  return { sql: compiled.sql, parameters: compiled.parameters, slots };
}

/**
 * Compiles `build` once per engine and number of arguments (keeping the MAX_TEMPLATES_PER_QUERY
 * most recently used); runs it with each call's arguments (at once where SQLite's connection is
 * free, else through Kysely).
 */
export function compiledOnce<A extends unknown[]>(build: Build<A>): ((db: Kysely<any>, ...args: A) => ImmediateResult | Promise<ImmediateResult>) & { cached(postgres: boolean): number } {
  // By engine (SQLite, PostgreSQL), then by number of arguments, in order of last use.
  const templates: [Map<number, Template>, Map<number, Template>] = [new Map(), new Map()];
  const run = (db: Kysely<any>, ...args: A) => {
    const postgres = isPostgres(db);
    const forEngine = templates[postgres ? 1 : 0];
    let template = forEngine.get(args.length);
    if (template) {
      forEngine.delete(args.length);
    } else {
      const markers = args.map((_, i) => marker(i));
      template = templateOf(build(db, postgres, ...(markers as unknown as A)).compile(), args.length);
      if (forEngine.size >= MAX_TEMPLATES_PER_QUERY) forEngine.delete(forEngine.keys().next().value!);
    }
    forEngine.set(args.length, template);
    return runTemplate(db, template, args);
  };
  return Object.assign(run, { cached: (postgres: boolean) => templates[postgres ? 1 : 0].size });
}

/**
 * Runs a template with these arguments: at once where SQLite's connection is free, as a named
 * statement on PostgreSQL outside a transaction (postgres-reads.ts), else through Kysely.
 */
export function runTemplate(db: Kysely<any>, { sql, parameters, slots, long }: Template, args: readonly unknown[]): ImmediateResult | Promise<ImmediateResult> {
  const values = parameters.map((value, i) => (slots[i]! >= 0 ? args[slots[i]!] : value));
  const immediate = immediateRunner(db);
  if (immediate) return immediate(sql, values);
  const postgres = postgresRunner(db);
  if (postgres) return postgres(sql, values, long);
  return db.executeQuery(CompiledQuery.raw(sql, values))
    .then((result) => ({ rows: result.rows, insertId: result.insertId === undefined ? undefined : Number(result.insertId) }));
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
