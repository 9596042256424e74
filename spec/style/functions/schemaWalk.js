// Shared by the schema rules (not a rule itself): visits every subschema, telling the visitor the
// keywords that led to it (`trail`, e.g. ['properties', 'allOf']; its last entry is the keyword of
// the direct parent). A schema shared by several parents is visited once per parent; only cycles
// (recursive schemas) are cut.
const CHILD_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const CHILD_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const CHILD_ONES = ['items', 'additionalProperties', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];

export function walkSchema(schema, visit, path = [], trail = [], ancestors = new Set()) {
  if (!schema || typeof schema !== 'object' || ancestors.has(schema)) return;
  visit(schema, path, trail[trail.length - 1] || null, trail);
  const inner = new Set(ancestors).add(schema);
  for (const key of CHILD_MAPS) {
    const map = schema[key];
    if (map && typeof map === 'object') {
      for (const [name, child] of Object.entries(map)) walkSchema(child, visit, [...path, key, name], [...trail, key], inner);
    }
  }
  for (const key of CHILD_LISTS) {
    if (Array.isArray(schema[key])) schema[key].forEach((child, i) => walkSchema(child, visit, [...path, key, i], [...trail, key], inner));
  }
  for (const key of CHILD_ONES) {
    if (schema[key] && typeof schema[key] === 'object') walkSchema(schema[key], visit, [...path, key], [...trail, key], inner);
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

// The properties an object schema declares, its allOf members' included.
export function propertiesOf(schema) {
  if (!schema || typeof schema !== 'object') return {};
  const own = { ...(schema.properties || {}) };
  for (const member of schema.allOf || []) Object.assign(own, propertiesOf(member));
  return own;
}

// The property of a resolved `schema` a JSON pointer (`/image/id`) names, or undefined.
export function atPointer(schema, pointer) {
  let at = schema;
  for (const token of pointer.split('/').slice(1)) {
    at = propertiesOf(at)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!at) return undefined;
  }
  return at;
}
