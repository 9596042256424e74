// Pages exactly as the requirements say: `page` from 1, `page_size` 25..100 (bounds and defaults
// from the bundle's parameters, applied by validation), `{data, page, pages, results}`. Rows come
// from SQL with LIMIT/OFFSET, never by loading a table. A page past the last answers an empty
// `data` with the real `pages` and `results` (spec/DECISIONS.md, section 8).
import type { SelectQueryBuilder } from 'kysely';
import { filterOf } from '../filtering/header.js';
import { applyFilter } from '../filtering/sql.js';
import { countFilteredRows } from '../filtering/count.js';

export interface PageRequest {
  page?: number;
  page_size?: number;
}

export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

const DEFAULT_PAGE_SIZE = 100;

export function pageBounds(request: PageRequest): { page: number; size: number; offset: number } {
  const page = request.page ?? 1;
  const size = request.page_size ?? DEFAULT_PAGE_SIZE;
  return { page, size, offset: (page - 1) * size };
}

/** `SELECT count(*)` of a query (its selections and order are dropped). */
export async function countRows(query: SelectQueryBuilder<any, any, any>): Promise<number> {
  const row = await query.clearSelect().clearOrderBy().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}

/**
 * One page of `query` (ordered by the caller, for a stable order), each row mapped by `map`,
 * which may load related rows for the whole page at once.
 */
export async function paginate<Row, Out>(
  query: SelectQueryBuilder<any, any, Row>,
  request: PageRequest,
  map: (rows: Row[]) => Promise<Out[]> | Out[],
): Promise<Page<Out>> {
  const { page, size, offset } = pageBounds(request);
  // The list's X-Filter, when one was sent: pages are counted after filtering.
  const filter = filterOf(request);
  if (filter) query = applyFilter(query, filter);
  const results = filter ? await countFilteredRows(filter.db, query) : await countRows(query);
  const rows = offset < results ? await query.limit(size).offset(offset).execute() : [];
  return { data: await map(rows), page, pages: Math.ceil(results / size), results };
}

/** The same page over a list held in memory (the read-only catalogues). */
export function paginateList<T>(items: readonly T[], request: PageRequest): Page<T> {
  const { page, size, offset } = pageBounds(request);
  return { data: items.slice(offset, offset + size), page, pages: Math.ceil(items.length / size), results: items.length };
}
