// What a list's pages must agree on: pure, unit-tested on their own. One page: `page` as asked,
// `pages` from `results` and the page size, as many items as that puts there. A walk of every
// page: each item once, and as many items as `results` says.
import { isObject } from '../model/json.js';

/** The problems of one page of a list answer (`{data, page, pages, results}`), or undefined when it is not such a page. */
export function pageProblems(body: unknown, asked: number, size: number): string[] | undefined {
  if (!isObject(body)) return undefined;
  const { data, page, pages, results: total } = body as { data?: unknown; page?: unknown; pages?: unknown; results?: unknown };
  if (!Array.isArray(data) || ![page, pages, total].every((n) => Number.isInteger(n))) return undefined;
  const problems: string[] = [];
  if (page !== asked) problems.push(`page is ${page} for page=${asked}`);
  if (Number.isFinite(size)) {
    const expected = Math.ceil((total as number) / size);
    if (pages !== expected && !((total as number) === 0 && (pages === 0 || pages === 1))) problems.push(`pages is ${pages}, but ${total} results at page_size ${size} make ${expected}`);
    if (data.length > size) problems.push(`${data.length} items on a page of ${size}`);
    const onThisPage = Math.max(0, Math.min(size, (total as number) - (asked - 1) * size));
    if (data.length !== onThisPage) problems.push(`${data.length} items on page ${asked}, but ${total} results at page_size ${size} put ${onThisPage} there`);
  }
  return problems;
}

export interface Walked { items: { item: unknown; page: number }[]; total?: number; pages: number; complete: boolean }

/** The problems of a whole walk: an item seen twice (by `identity`), or a count that disagrees with `results`. */
export function walkProblems(walked: Walked, identity: (item: unknown) => string): string[] {
  const keys = walked.items.map((x) => identity(x.item));
  const repeated = keys.filter((k, i) => keys.indexOf(k) !== i);
  const problems: string[] = [];
  if (repeated.length) problems.push(`${repeated.length} item(s) came twice while walking the pages (first: ${repeated[0]})`);
  if (walked.complete && walked.total !== undefined && walked.items.length !== walked.total) problems.push(`the pages held ${walked.items.length} items, but results says ${walked.total}`);
  return problems;
}

/** An item's identity: its key fields when it has them all, else the whole item. */
export const identityBy = (fields: string[]) => (item: unknown): string => (isObject(item) && fields.every((f) => item[f] !== undefined) ? JSON.stringify(fields.map((f) => item[f])) : JSON.stringify(item));
