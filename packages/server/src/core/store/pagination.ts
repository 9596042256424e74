// Pages exactly as the requirements say: `page` from 1, `page_size` 25..100 (bounds and defaults
// from the bundle's parameters, applied by validation), `{data, page, pages, results}`. Rows come
// from SQL with LIMIT/OFFSET, never by loading a table. A page past the last answers an empty
// `data` with the real `pages` and `results` (spec/DECISIONS.md, section 8).
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { filterOf } from '../filtering/header.js';
import type { ListFilter } from '../filtering/header.js';
import { applyFilter } from '../filtering/sql.js';
import { countRowsOnce } from './count.js';
import { columnNames, rowMaker } from './immediate.js';
import { isPostgres } from './kind.js';
import { STATE_TIMES } from './page-cache.js';
import { marker, runTemplate, templateOf } from './prepared.js';
import type { Template } from './prepared.js';

export interface PageRequest {
  page?: number;
  page_size?: number;
}

export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
  /** When states of the page's rows move on the clock (page-cache.ts); not part of the answer. */
  [STATE_TIMES]?: number[];
}

const DEFAULT_PAGE_SIZE = 100;

/**
 * How many pages `results` items fill: at least one, since an empty list is one empty page, as
 * the service answers (`page: 1, pages: 1, results: 0` in the recorded traffic; DECISIONS.md §8).
 */
export const pageCount = (results: number, size: number) => Math.max(1, Math.ceil(results / size));

export function pageBounds(request: PageRequest): { page: number; size: number; offset: number } {
  const page = request.page ?? 1;
  const size = request.page_size ?? DEFAULT_PAGE_SIZE;
  return { page, size, offset: (page - 1) * size };
}

const countQuery = (query: SelectQueryBuilder<any, any, any>) => query.clearSelect().clearOrderBy().select((eb) => eb.fn.countAll().as('n'));

/** `SELECT count(*)` of a query (its selections and order are dropped). */
export async function countRows(query: SelectQueryBuilder<any, any, any>): Promise<number> {
  const row = await countQuery(query).executeTakeFirst();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}

/** A list's count and page queries, compiled; the page's LIMIT and OFFSET are its two arguments. */
interface ListQueries {
  count: { sql: string; parameters: readonly unknown[] };
  page: Template;
  /**
   * SQLite: the page's rows each as one JSON array text, and how to make a row of one. better-
   * sqlite3 makes a V8 value of every cell, which for a page of 100 rows costs more than SQLite
   * writing the text and V8 parsing it. Dropped for a list whose rows hold a BLOB (JSON cannot).
   */
  json?: { page: Template; toRow: (values: readonly unknown[]) => Record<string, unknown> };
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The JSON form of a SQLite page query: each row one `json_array` of its columns. SQLite reads a
 * FROM subquery with ORDER BY and LIMIT as a co-routine, in its order (the X-Filter property test
 * and the contract kit check the order of every list).
 */
function jsonPageOf(db: Kysely<any>, page: Template): ListQueries['json'] {
  const names = columnNames(db, page.sql);
  if (!names?.length || new Set(names).size !== names.length) return undefined;
  const sql = `select json_array(${names.map(quoted).join(', ')}) as "row" from (${page.sql}) as "page_rows"`;
  return { page: { ...page, sql }, toRow: rowMaker(names) };
}

/** The rows of one page: LIMIT `size`, OFFSET `offset`. */
async function pageRows(db: Kysely<any>, queries: ListQueries, size: number, offset: number): Promise<unknown[]> {
  const { json } = queries;
  if (json) {
    try {
      const { rows } = await runTemplate(db, json.page, [size, offset]);
      return rows.map((row) => json.toRow(JSON.parse((row as { row: string }).row)));
    } catch (error) {
      if (!/JSON cannot hold BLOB/i.test((error as Error).message)) throw error;
      queries.json = undefined;
    }
  }
  return (await runTemplate(db, queries.page, [size, offset])).rows;
}

// Compiled once per list query (its SQL and values), engine and X-Filter text: building the
// filter, the count and the page with Kysely and compiling them cost more than running them. The
// oldest of the ENTRIES goes first.
const ENTRIES = 512;
const compiledLists = new Map<string, ListQueries>();

const jsonValue = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

// The key of a list query kept for each query object: a list whose query is built once and
// reused (`taggableStore`'s `list`) is not compiled again per request.
const baseKeys = new WeakMap<object, string>();

function baseKeyOf(db: Kysely<any>, query: SelectQueryBuilder<any, any, any>): string {
  let key = baseKeys.get(query);
  if (key === undefined) {
    const base = query.compile();
    key = `${isPostgres(db) ? 'pg' : 'sqlite'}\u0000${base.sql}\u0000${JSON.stringify(base.parameters, jsonValue)}`;
    baseKeys.set(query, key);
  }
  return key;
}

function listQueriesOf(db: Kysely<any>, query: SelectQueryBuilder<any, any, any>, filter: ListFilter | undefined): { key: string; queries: ListQueries } {
  const key = `${baseKeyOf(db, query)}\u0000${filter ? `${filter.operationId}\u0000${filter.text}` : ''}`;
  let queries = compiledLists.get(key);
  if (!queries) {
    const filtered = filter ? applyFilter(query, filter) : query;
    const page = { ...templateOf(filtered.limit(marker(0) as unknown as number).offset(marker(1) as unknown as number).compile(), 2), long: true };
    queries = { count: countQuery(filtered).compile(), page, json: isPostgres(db) ? undefined : jsonPageOf(db, page) };
    if (compiledLists.size >= ENTRIES) compiledLists.delete(compiledLists.keys().next().value!);
    compiledLists.set(key, queries);
  }
  return { key, queries };
}

/**
 * One page of `query` on `db` (ordered by the caller, for a stable order; the list's X-Filter,
 * when one was sent, filters and orders it, and pages are counted after filtering), each row
 * mapped by `map`, which may load related rows for the whole page at once.
 */
export async function paginate<Row, Out>(
  db: Kysely<any>,
  query: SelectQueryBuilder<any, any, Row>,
  request: PageRequest,
  map: (rows: Row[]) => Promise<Out[]> | Out[],
): Promise<Page<Out>> {
  const { page, size, offset } = pageBounds(request);
  const { key, queries } = listQueriesOf(db, query, filterOf(request));
  const results = await countRowsOnce(db, queries.count, key);
  const rows = offset < results ? await pageRows(db, queries, size, offset) as Row[] : [];
  const shown: Page<Out> = { data: await map(rows), page, pages: pageCount(results, size), results };
  // Not enumerable: it is about the page, not in it.
  return Object.defineProperty(shown, STATE_TIMES, { value: stateTimes(rows) });
}

/** The transition_at of each row in a state that moves on the clock (core/clock.ts's StateColumns). */
function stateTimes(rows: readonly unknown[]): number[] {
  const times: number[] = [];
  for (const row of rows as { next_status?: unknown; transition_at?: unknown }[]) {
    if (row.next_status != null && row.transition_at != null) times.push(Number(row.transition_at));
  }
  return times;
}

/** The same page over a list held in memory (the read-only catalogues). */
export function paginateList<T>(items: readonly T[], request: PageRequest): Page<T> {
  const { page, size, offset } = pageBounds(request);
  return { data: items.slice(offset, offset + size), page, pages: pageCount(items.length, size), results: items.length };
}
