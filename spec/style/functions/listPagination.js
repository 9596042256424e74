import { ownProperties } from '../../lib/schema-walk.mjs';
import { resolvedRoot } from './schemaWalk.js';

// A GET that answers with the paginated envelope takes the shared `page` and `page_size` query
// parameters, so clients can walk every page.
function isEnvelope(schema) {
  const props = ownProperties(schema);
  return Boolean(props.page && props.pages && props.results);
}

export default function listPagination(operation, options, context) {
  if (!operation || typeof operation !== 'object') return [];
  const ok = operation.responses && operation.responses['200'];
  const schema = ok && ok.content && ok.content['application/json'] && ok.content['application/json'].schema;
  if (!isEnvelope(schema)) return [];
  const pathItem = (resolvedRoot(context).paths || {})[context.path[1]] || {};
  const names = new Set([...(pathItem.parameters || []), ...(operation.parameters || [])]
    .filter((p) => p && p.in === 'query').map((p) => p.name));
  return ['page', 'page_size']
    .filter((name) => !names.has(name))
    .map((name) => ({
      message: `Paginated list without the "${name}" query parameter: add "$ref: <relative path>/components/parameters/common/${name === 'page' ? 'Page' : 'PageSize'}.yaml".`,
      path: [...context.path, 'parameters'],
    }));
}
