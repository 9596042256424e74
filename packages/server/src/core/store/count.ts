// `results` of a list on SQLite, remembered until the database changes: counting a `+contains`
// over 100,000 rows scans them all, and a client paging through a list asks the same count for
// every page. The key is the count's SQL and parameters; the entry holds while `total_changes()`
// (writes through this connection, rolled back or not) and `data_version` (commits by any other
// connection or process) stay the same. PostgreSQL, shared by several server processes, counts
// every time.
import type { Kysely } from 'kysely';
import { isPostgres } from './kind.js';
import { runTemplate } from './prepared.js';
import type { Template } from './prepared.js';

const ENTRIES = 256;
const caches = new WeakMap<Kysely<any>, Map<string, { version: string; count: number }>>();

const asTemplate = (sql: string, parameters: readonly unknown[] = []): Template => ({ sql, parameters, slots: parameters.map(() => -1) });
const VERSION = asTemplate('select total_changes() as c, (select data_version from pragma_data_version) as v');

async function run(db: Kysely<any>, template: Template): Promise<number> {
  const { rows } = await runTemplate(db, template, []);
  return Number((rows[0] as { n?: unknown } | undefined)?.n ?? 0);
}

/** Runs `count` (a compiled `SELECT count(*) AS n`), or answers it from the cache. */
export async function countRowsOnce(db: Kysely<any>, count: { sql: string; parameters: readonly unknown[] }, key: string): Promise<number> {
  const template = asTemplate(count.sql, count.parameters);
  if (isPostgres(db)) return run(db, template);
  const versionRow = (await runTemplate(db, VERSION, [])).rows[0] as { c: number; v: number } | undefined;
  const version = `${versionRow?.c}:${versionRow?.v}`;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const known = cache.get(key);
  if (known && known.version === version) return known.count;
  const counted = await run(db, template);
  cache.delete(key);
  cache.set(key, { version, count: counted });
  if (cache.size > ENTRIES) cache.delete(cache.keys().next().value!);
  return counted;
}
