// Reads the `X-Filter` header of a list operation (the language of @cloudapi/spec/filters, fields
// from the bundle's x-filterable marks) and keeps the parsed filter beside the request's query, where
// `paginate` (core/store/pagination.ts) finds it. A bad filter is a 400 naming X-Filter.
import { FILTER_HEADER, FilterError, filterSpecs, parseFilter } from '@cloudapi/spec/filters';
import type { FilterSpec, ParsedFilter } from '@cloudapi/spec/filters';
import type { ErrorDetail } from '../errors.js';
import type { Kysely } from 'kysely';
import { isPostgres } from '../store/kind.js';
import type { Engine } from '../store/db.js';

export interface ListFilter {
  operationId: string;
  spec: FilterSpec;
  parsed: ParsedFilter;
  /** The header as sent: the same text is the same filter (pagination keys its compiled SQL by it). */
  text: string;
  engine: Engine;
}

const specsOfDocument = new WeakMap<object, Map<string, FilterSpec>>();
const filterOfQuery = new WeakMap<object, ListFilter>();

/** The filter spec of a list operation, or undefined when it takes no X-Filter. */
export function listFilterSpec(document: object, operationId: string): FilterSpec | undefined {
  let specs = specsOfDocument.get(document);
  if (!specs) specsOfDocument.set(document, (specs = filterSpecs(document)));
  return specs.get(operationId);
}

/**
 * Parses the request's X-Filter for `operationId` into `problems` (a 400) or beside `query`.
 * A header sent to an operation that takes none is ignored, as other unknown headers are.
 */
export function readFilterHeader(document: object, operationId: string, request: { headers: Record<string, string | string[] | undefined> }, query: object, db: Kysely<any>, problems: ErrorDetail[]): void {
  const raw = request.headers[FILTER_HEADER.toLowerCase()];
  if (raw === undefined) return;
  const spec = listFilterSpec(document, operationId);
  if (!spec) return;
  try {
    if (Array.isArray(raw)) throw new FilterError('was sent more than once: send one X-Filter header');
    filterOfQuery.set(query, { operationId, spec, parsed: parseFilter(raw, spec), text: raw, engine: isPostgres(db) ? 'postgres' : 'sqlite' });
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    problems.push({ field: FILTER_HEADER, reason: `${FILTER_HEADER} ${error.reason}` });
  }
}

/** The filter read for this query object, if any. */
export function filterOf(query: object): ListFilter | undefined {
  return filterOfQuery.get(query);
}
