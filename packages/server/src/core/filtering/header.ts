// Reads the `X-Filter` header of a list operation (the language of @cloudapi/spec/filters, fields
// from the bundle's x-filterable marks) into the checked request's `filter` (core/dispatch/check.ts),
// which the handler's context carries to `paginate` (core/store/pagination.ts) and the page cache
// keys answers by. A bad filter is a 400 naming X-Filter.
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

/** The filter spec of a list operation, or undefined when it takes no X-Filter. */
export function listFilterSpec(document: object, operationId: string): FilterSpec | undefined {
  let specs = specsOfDocument.get(document);
  if (!specs) specsOfDocument.set(document, (specs = filterSpecs(document)));
  return specs.get(operationId);
}

/**
 * The request's X-Filter for `operationId`, parsed; undefined without one, or with its problem
 * added to `problems` (a 400). A header sent to an operation that takes none is ignored, as other
 * unknown headers are.
 */
export function readFilterHeader(document: object, operationId: string, request: { headers: Record<string, string | string[] | undefined> }, db: Kysely<any>, problems: ErrorDetail[]): ListFilter | undefined {
  const raw = request.headers[FILTER_HEADER.toLowerCase()];
  if (raw === undefined) return undefined;
  const spec = listFilterSpec(document, operationId);
  if (!spec) return undefined;
  try {
    if (Array.isArray(raw)) throw new FilterError('was sent more than once: send one X-Filter header');
    return { operationId, spec, parsed: parseFilter(raw, spec), text: raw, engine: isPostgres(db) ? 'postgres' : 'sqlite' };
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    problems.push({ field: FILTER_HEADER, reason: `${FILTER_HEADER} ${error.reason}` });
    return undefined;
  }
}
