// Queries built and compiled once per engine, then run with new arguments: building and
// compiling a Kysely query costs as much as running a point read, so the reads every request of
// an area makes (an object by id) are worth preparing.
//
//   const volumeById = prepared((db, id: number) => selectVolumes(db).where('volumes.id', '=', id));
//   const row = (await volumeById(ctx.db, 12))[0];
//
// `build` must use each argument as a value (a parameter of the compiled SQL), not to choose the
// query's shape: the first call checks that every argument became a parameter.
import { CompiledQuery } from 'kysely';
import type { Compilable, Kysely } from 'kysely';
import { isPostgres } from './db.js';

const marker = (i: number) => `\u0000prepared-argument-${i}\u0000`;

interface Template {
  sql: string;
  parameters: readonly unknown[];
  /** For each parameter: the argument that fills it, or -1 to keep the compiled value. */
  slots: number[];
}

export function prepared<A extends unknown[], O>(build: (db: Kysely<any>, ...args: A) => Compilable<O>): (db: Kysely<any>, ...args: A) => Promise<O[]> {
  const templates = new Map<boolean, Template>();
  return async (db, ...args) => {
    const engine = isPostgres(db);
    let template = templates.get(engine);
    if (!template) {
      const markers = args.map((_, i) => marker(i));
      const compiled = build(db, ...(markers as unknown as A)).compile();
      const slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith('\u0000prepared-argument-') ? markers.indexOf(p) : -1));
      markers.forEach((m, i) => {
        if (!slots.includes(i)) throw new Error(`prepared query: argument ${i} is not used as a value of the query (${compiled.sql})`);
        if (compiled.sql.includes(m)) throw new Error(`prepared query: argument ${i} was written into the SQL text`);
      });
      template = { sql: compiled.sql, parameters: compiled.parameters, slots };
      templates.set(engine, template);
    }
    const { sql, parameters, slots } = template;
    const values = parameters.map((value, i) => (slots[i]! >= 0 ? args[slots[i]!] : value));
    const result = await db.executeQuery<O>(CompiledQuery.raw(sql, values));
    return result.rows;
  };
}
