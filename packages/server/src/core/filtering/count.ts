// `results` of a filtered list on SQLite, remembered until the database changes: counting a
// `+contains` over 100,000 rows scans them all, and a client paging through one filter asks the
// same count for every page. The key is the count's SQL and parameters; the entry holds while
// `total_changes()` (writes through this connection, rolled back or not) and `data_version`
// (commits by any other connection or process) stay the same. PostgreSQL, shared by several
// server processes, counts every time.
import { sql } from 'kysely';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { isPostgres } from '../store/db.js';

const ENTRIES = 256;
const caches = new WeakMap<Kysely<any>, Map<string, { version: string; count: number }>>();

function countQuery(query: SelectQueryBuilder<any, any, any>) {
  return query.clearSelect().clearOrderBy().select((eb) => eb.fn.countAll().as('n'));
}

export async function countFilteredRows(db: Kysely<any>, query: SelectQueryBuilder<any, any, any>): Promise<number> {
  const counting = countQuery(query);
  if (isPostgres(db)) return Number(((await counting.executeTakeFirst()) as { n?: unknown } | undefined)?.n ?? 0);
  const versionRow = (await sql<{ c: number; v: number }>`select total_changes() as c, (select data_version from pragma_data_version) as v`.execute(db)).rows[0];
  const version = `${versionRow?.c}:${versionRow?.v}`;
  const compiled = counting.compile();
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const known = cache.get(key);
  if (known && known.version === version) return known.count;
  const count = Number(((await counting.executeTakeFirst()) as { n?: unknown } | undefined)?.n ?? 0);
  cache.delete(key);
  cache.set(key, { version, count });
  if (cache.size > ENTRIES) cache.delete(cache.keys().next().value!);
  return count;
}
