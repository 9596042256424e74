// Which operations Prism's router is given for a request. Prism's router sorts every operation of
// the document and matches each against the request path, on every request: about a fifth of a
// generated answer's CPU and half of an example's. Given only the operations whose path matches
// (by Prism's own matchPath), it picks the same operation, for it decides among those alone, and
// its sort is stable, so their order is kept.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { matchPath } = require('@stoplight/prism-http/dist/router/matchPath.js');
const { MatchType } = require('@stoplight/prism-http/dist/router/types.js');

/** How many request paths are remembered at a time (ids make paths many); then it starts over. */
export const MAX_PATHS = 2_000;

/**
 * For Prism operations, `(path, baseUrl) =>` those Prism's router may match for a request path,
 * remembered per path. A path that none matches, or a request naming a server (`__server`: Prism
 * then looks at every operation's servers), gets them all, so that Prism's answer says why.
 * @param {Array<{ path: string }>} operations
 * @returns {(path: string, baseUrl?: string) => Array<{ path: string }>}
 */
export function routingOf(operations) {
  const byPath = new Map();
  return (path, baseUrl) => {
    if (baseUrl || !path.startsWith('/')) return operations;
    let candidates = byPath.get(path);
    if (!candidates) {
      if (byPath.size >= MAX_PATHS) byPath.clear();
      candidates = operations.filter((op) => matchPath(path, op.path).right !== MatchType.NOMATCH);
      byPath.set(path, candidates);
    }
    return candidates.length ? candidates : operations;
  };
}
