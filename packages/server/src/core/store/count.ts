// `results` of a list, remembered while the store's data version (version.ts) stays the same:
// counting a `+contains` over 100,000 rows scans them all (on PostgreSQL a plain count(*) of them
// costs its server about 5 ms), and a client paging through a list asks the same count for every
// page. The key is the count's SQL and parameters (and the engine); an engine that cannot tell
// its data version counts every time.
import type { Kysely } from 'kysely';
import { runTemplate } from './prepared.js';
import type { Template } from './prepared.js';
import { dataVersionReader } from './version.js';

const ENTRIES = 256;
const caches = new WeakMap<Kysely<any>, Map<string, { version: string; count: number }>>();

// A count may scan the whole table: on PostgreSQL it runs on the pool, not pipelined (`long`).
const asTemplate = (sql: string, parameters: readonly unknown[] = []): Template => ({ sql, parameters, slots: parameters.map(() => -1), long: true });

async function run(db: Kysely<any>, template: Template): Promise<number> {
  const { rows } = await runTemplate(db, template, []);
  return Number((rows[0] as { n?: unknown } | undefined)?.n ?? 0);
}

/** Runs `count` (a compiled `SELECT count(*) AS n`), or answers it from the cache. */
export async function countRowsOnce(db: Kysely<any>, count: { sql: string; parameters: readonly unknown[] }, key: string): Promise<number> {
  const template = asTemplate(count.sql, count.parameters);
  const readVersion = dataVersionReader(db);
  if (!readVersion) return run(db, template);
  // Read before the count: a commit between the two makes the entry only look older.
  const version = await readVersion();
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
