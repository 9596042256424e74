// Walking a list operation's pages (`pages`), its items across pages (`paginate`) and all of them
// (`listAll`), over the client's GET. A walk stops at the last page, an empty page, a page seen
// before (a server that ignores `page`) or `maxPages`.
import { ApiError } from './errors.js';
import type { AnyCall, AnyInit } from './call.js';
import { throwIfIncomplete } from './pagination-error.js';
import type { PaginationOptions, PaginationStop } from './types.js';

export function listWalkers(GET: AnyCall) {
  async function* pages(path: string, init: AnyInit & PaginationOptions & { filter?: unknown } = {}) {
    // `filter` stays in `rest`: every page is asked with it, or the pages would not add up.
    const { maxPages = 10_000, onStop, ...rest } = init;
    let page = Number(rest.params?.query?.page ?? 1);
    let count = 0;
    let reason: PaginationStop['reason'] | '' = '';
    const firsts = new Set<string | undefined>();
    while (count < maxPages) {
      const { data, error, response } = await GET(path, { ...rest, params: { ...rest.params, query: { ...rest.params?.query, page } } });
      if (error) throw error;
      count += 1;
      const body = data as { data: Array<{ id?: unknown } | undefined>; pages?: number };
      if (!Array.isArray(body.data)) throw new ApiError(response, body, `GET ${path}`, undefined, 'not a page of a list');
      // A server that ignores `page` answers the same page again: stop rather than loop.
      const first = JSON.stringify(body.data[0]?.id ?? body.data[0]);
      if (firsts.has(first)) {
        reason = 'repeated-page';
        break;
      }
      firsts.add(first);
      yield body;
      reason = !(page < Number(body.pages)) ? 'last-page' : body.data.length ? '' : 'empty-page';
      if (reason) break;
      page += 1;
    }
    const stop: PaginationStop = { reason: reason || 'max-pages', pages: count };
    onStop?.(stop);
    return stop;
  }

  // Both throw a PaginationError when the walk stopped short (pagination-error.ts); `pages` only
  // returns the reason. `items`, from listAll, collects what was read.
  async function* paginate(path: string, init?: AnyInit & PaginationOptions & { filter?: unknown }, items?: unknown[]) {
    const walk = pages(path, init);
    let count = 0;
    let step;
    try {
      while (!(step = await walk.next()).done) {
        count += step.value.data.length;
        items?.push(...step.value.data);
        yield* step.value.data;
      }
    } finally {
      await walk.return(undefined as never); // the caller broke out: end the page walk too
    }
    throwIfIncomplete(`GET ${path}`, step.value, !!init?.onStop, count, items);
  }

  async function listAll(path: string, init?: AnyInit & PaginationOptions & { filter?: unknown }) {
    const items: unknown[] = [];
    for await (const item of paginate(path, init, items)) void item;
    return items;
  }

  return { pages, paginate, listAll };
}
