// Shared by the schema rules (not a rule itself): visits every subschema, telling the visitor the
// keywords that led to it (`trail`, e.g. ['properties', 'allOf']; its last entry is the keyword of
// the direct parent). A schema shared by several parents is visited once per parent; only cycles
// (recursive schemas) are cut.
import { parsePointer } from '../../lib/json-pointer.mjs';
import { ownProperties, subschemas } from '../../lib/schema-walk.mjs';

export function walkSchema(schema, visit, path = [], trail = [], ancestors = new Set()) {
  if (!schema || typeof schema !== 'object' || ancestors.has(schema)) return;
  visit(schema, path, trail[trail.length - 1] || null, trail);
  const inner = new Set(ancestors).add(schema);
  // Every keyword that holds subschemas, as the spec's one walker (lib/schema-walk.mjs) knows them.
  for (const { keyword, key, schema: child } of subschemas(schema)) {
    walkSchema(child, visit, key === undefined ? [...path, keyword] : [...path, keyword, key], [...trail, keyword], inner);
  }
}

// True when a subschema only states a condition (inside `if`, `not`, `contains` or
// `propertyNames`) rather than declaring fields.
export function isCondition(trail) {
  return trail.some((k) => k === 'if' || k === 'not' || k === 'contains' || k === 'propertyNames');
}

// The whole document with every $ref followed. Rules must read sibling parts of the document
// (path-level parameters, the oauth flows) from here: `context.document.data` is the unresolved
// root, where each path item of spec/openapi.yaml is still a $ref to its file.
export function resolvedRoot(context) {
  return (context.documentInventory && context.documentInventory.resolved) || (context.document && context.document.data) || {};
}

// The property of a resolved `schema` a JSON pointer (`/image/id`) names, or undefined (also when
// the pointer is malformed: the rule then says what to write).
export function atPointer(schema, pointer) {
  let tokens;
  try {
    tokens = parsePointer(pointer);
  } catch {
    return undefined;
  }
  let at = schema;
  for (const token of tokens) {
    at = ownProperties(at)[token];
    if (!at) return undefined;
  }
  return at;
}
