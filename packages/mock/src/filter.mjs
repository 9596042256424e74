// X-Filter in the mock: the header is checked against the operation's filter (the same language,
// limits and 400 reasons as the reference server, from @cloudapi/spec/filters) and the page the
// mock answers is filtered and ordered with it, so filtering can be tried before a server exists.
import { FILTER_HEADER, FilterError, applyFilterInMemory, parseFilter } from '@cloudapi/spec/filters';

const HEADER = FILTER_HEADER.toLowerCase();

/**
 * The request's filter for `op`: `{ filter }` (null when none was sent or the operation takes
 * none), or `{ error }`, the ErrorResponse detail of a bad filter.
 */
export function readListFilter(filters, op, headers) {
  const raw = headers[HEADER];
  const spec = op && filters?.get(op.operationId);
  if (raw === undefined || !spec) return { filter: null };
  try {
    return { filter: { spec, parsed: parseFilter(Array.isArray(raw) ? null : raw, spec) } };
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    return { error: { field: FILTER_HEADER, reason: `${FILTER_HEADER} ${error.reason}` } };
  }
}

/** The headers without X-Filter: the front layer has dealt with it. */
export function withoutFilter(headers) {
  const { [HEADER]: _dropped, ...rest } = headers;
  return rest;
}

/** A page body (JSON text) with its `data` filtered and ordered, `results` and `pages` recounted. */
export function filterPageBody(text, { spec, parsed }) {
  let page;
  try {
    page = JSON.parse(text);
  } catch {
    return text;
  }
  if (!page || !Array.isArray(page.data)) return text;
  const data = applyFilterInMemory(page.data, parsed, spec);
  return JSON.stringify({ ...page, data, results: data.length, pages: data.length ? 1 : 0 });
}
