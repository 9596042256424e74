// A list whose items mark fields `x-filterable` takes the shared X-Filter header (whose schema the
// bundle step fills from those marks), and a list without marks does not: the header and the marks
// stay in step. The header is JSON in a string: `schema: {type: string}` (what generators expect of
// a header) with the JSON's structure in `contentMediaType`/`contentSchema`, not `content`.
//
// Runs unresolved (`resolved: false`): a mark sits beside a `$ref` (`{$ref: Timestamp.yaml,
// x-filterable: true}`), and resolving drops the siblings of a `$ref`. So it reads the bundle,
// whose references all point inside the document, and skips operations it cannot follow.
import { resolvePointer } from '../../lib/json-pointer.mjs';
import { ownProperties } from '../../lib/schema-walk.mjs';

const HEADER = 'X-Filter';
const EXTERNAL = Object.freeze({ external: true }); // a reference to another file: not followed here

function follow(root, node) {
  let at = node;
  for (let i = 0; at && typeof at.$ref === 'string' && i < 16; i++) {
    if (!at.$ref.startsWith('#/')) return EXTERNAL;
    at = resolvePointer(root, at.$ref);
  }
  return at;
}

// The properties an object schema declares, its allOf parts' included; a part in another file
// stops the check (the bundle is checked instead).
function properties(root, node) {
  return ownProperties(node, {
    resolve: (raw) => {
      const schema = follow(root, raw);
      if (schema === EXTERNAL) throw EXTERNAL;
      return schema;
    },
  });
}

const isJsonInString = (schema) => Boolean(schema) && schema.type === 'string' && schema.contentMediaType === 'application/json' && Boolean(schema.contentSchema);

export default function filterHeader(operation, options, context) {
  try {
    return check(operation, context);
  } catch (error) {
    if (error === EXTERNAL) return []; // a source file: the bundle is checked instead
    throw error;
  }
}

function check(operation, context) {
  if (!operation || typeof operation !== 'object' || context.path[2] !== 'get') return [];
  const root = context.document.data;
  const ok = follow(root, operation.responses && operation.responses['200']);
  if (ok === EXTERNAL) return [];
  const media = ok && ok.content && ok.content['application/json'];
  if (!media) return [];
  const envelope = properties(root, media.schema);
  if (!envelope.data || !envelope.page || !envelope.pages || !envelope.results) return [];
  const data = follow(root, envelope.data);
  if (data === EXTERNAL) return [];
  if (!data || !data.items) return [];
  const marked = Object.entries(properties(root, data.items))
    .filter(([, raw]) => raw && (raw['x-filterable'] === true || (follow(root, raw) || {})['x-filterable'] === true))
    .map(([name]) => name);
  const pathItem = follow(root, (root.paths || {})[context.path[1]]) || {};
  const params = [...(pathItem.parameters || []), ...(operation.parameters || [])]
    .map((p) => follow(root, p))
    .filter((p) => p && p.in === 'header' && String(p.name).toLowerCase() === HEADER.toLowerCase());
  const at = [...context.path, 'parameters'];
  if (marked.length && !params.length) {
    return [{ message: `List whose items have filterable fields (${marked.join(', ')}) without the X-Filter header: add "$ref: <relative path>/components/parameters/common/XFilter.yaml".`, path: at }];
  }
  if (!marked.length && params.length) {
    return [{ message: 'X-Filter on a list whose items have no x-filterable field: remove the parameter, or mark the fields that can be filtered.', path: at }];
  }
  const problems = [];
  for (const p of params) {
    if (p.name !== HEADER) problems.push({ message: `The filter header is spelt "${HEADER}": use the shared components/parameters/common/XFilter.yaml.`, path: at });
    if (p.content || !isJsonInString(p.schema)) {
      problems.push({ message: 'X-Filter is JSON in a string header: describe it with "schema: {type: string, contentMediaType: application/json, contentSchema: ...}", not "content" (the shared components/parameters/common/XFilter.yaml does).', path: at });
    }
  }
  if (params.length && !(operation.responses || {})['400']) problems.push({ message: 'A list that takes X-Filter answers a bad filter with 400: add the shared BadRequest response.', path: [...context.path, 'responses'] });
  return problems;
}
