// Statements whose size grows with a request's lists are cut into batches: the spec bounds every
// list (`maxItems`), and batching keeps each statement's bound parameters far below SQLite's
// 32,766 and PostgreSQL's 65,535 whatever those bounds become.

/** Bound parameters one statement may take. */
export const MAX_STATEMENT_PARAMETERS = 2000;

/** `items` cut into runs of at most MAX_STATEMENT_PARAMETERS / `parametersPerItem` items (and at most `most`). */
export function batches<T>(items: readonly T[], parametersPerItem = 1, most = Infinity): T[][] {
  const size = Math.max(1, Math.min(most, Math.floor(MAX_STATEMENT_PARAMETERS / parametersPerItem)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Lets the event loop serve other clients between the batches of a long write. */
export const yieldToOtherRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
