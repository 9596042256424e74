// What a schema says about a value, flattened for comparison: its $refs followed (with the
// keywords written beside a $ref, as 3.1 allows), its allOf parts merged, the fields of its
// oneOf/anyOf branches united (a field counts as required when every branch requires it). Each
// keyword keeps the JSON pointer of where it was said, so a finding can point at the source line.
import { appendPointer } from '../json-pointer.mjs';
import { subschemas } from '../schema-walk.mjs';
import { deref } from '../walk.mjs';

/** Lower bounds: raising one (or setting it) narrows what a schema admits. */
export const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
/** Upper bounds: lowering one (or setting it) narrows what a schema admits. */
export const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
// Compared by presence, as oasdiff does: adding one narrows what a schema admits, removing widens.
const PRESENCE = ['if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'not'];
// Compared by presence of each key.
const KEYED = ['dependentSchemas', 'patternProperties'];
// An allOf part made only of these changes no value's validity (oasdiff's annotation-only parts).
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'default', 'externalDocs', '$comment']);

/** Several subschemas of one field (allOf parts, oneOf branches) compared as one. */
const MERGED = Symbol('pointers of the merged parts');

/**
 * One node standing for several subschemas, each keeping the pointer of where it is.
 * @param {any[]} schemas @param {Array<string | undefined>} [pointers]
 */
export const merged = (schemas, pointers = []) => (schemas.length === 1 ? schemas[0] : { allOf: schemas, [MERGED]: pointers });

/** A node that is only a `$ref` (its comparison can be cached by the two targets). @param {any} node */
export const isPlainRef = (node) => Boolean(node && typeof node.$ref === 'string' && Object.keys(node).length === 1);

function emptyFlat() {
  return {
    /** @type {string | undefined} */ at: undefined,
    /** @type {Record<string, string>} */ keywordAt: {},
    /** @type {Set<string> | null} */ types: null,
    /** @type {string | undefined} */ format: undefined,
    /** @type {unknown[] | null} */ enum: null,
    isConst: false,
    hasDefault: false,
    /** @type {unknown} */ default: undefined,
    /** @type {string | undefined} */ pattern: undefined,
    /** @type {Record<string, number>} */ bounds: {},
    /** @type {number | undefined} */ multipleOf: undefined,
    uniqueItems: false,
    flags: { readOnly: false, writeOnly: false, deprecated: false },
    /** @type {Record<string, any[]>} */ props: {},
    /** @type {Record<string, Array<string | undefined>>} */ propAt: {},
    /** @type {Record<string, string | undefined>} */ propOwner: {},
    /** @type {string | undefined} */ propertiesAt: undefined,
    required: new Set(),
    /** @type {Map<string, string>} */ requiredAt: new Map(),
    /** @type {Set<string>} */ requiredLists: new Set(),
    closed: false,
    /** @type {Set<string>} the keywords that close the object here (`additionalProperties` and `unevaluatedProperties` set to false) */ closedBy: new Set(),
    /** @type {any[]} */ additional: [],
    /** @type {Array<string | undefined>} */ additionalAt: [],
    /** @type {any[]} */ items: [],
    /** @type {Array<string | undefined>} */ itemsAt: [],
    /** @type {any[][]} */ prefixItems: [],
    /** @type {Array<Array<string | undefined>>} */ prefixItemsAt: [],
    /** @type {any[]} */ contentSchemas: [],
    /** @type {Array<string | undefined>} */ contentSchemaAt: [],
    /** @type {Map<string, string | undefined>} keyword (or `keyword/key`) → where it is said */ constraints: new Map(),
    /** @type {Map<string, string>} property → the properties it requires, sorted */ dependentRequired: new Map(),
    /** @type {Record<string, string>} contentMediaType, contentEncoding */ content: {},
    /** @type {Map<string, { keyword: string, pointer: string | undefined, annotationOnly: boolean, target: any }>} */ parts: new Map(),
    hasOneOf: false,
    /** the most branches of one oneOf that admit more than null */ oneOfChoices: 0,
  };
}
/** @typedef {ReturnType<typeof emptyFlat>} Flat */

/**
 * The flattened form of a schema node of `document`; `pointer` is where the node is (needed for
 * an inline node; a `$ref`'s target is its own pointer). Plain `$ref`s are flattened once per
 * `byRef` (one comparison's: the documents may change between comparisons).
 * @param {any} document @param {any} raw @param {string | undefined} pointer @param {Map<string, Flat>} byRef
 * @returns {Flat}
 */
export function flatten(document, raw, pointer, byRef) {
  if (!isPlainRef(raw)) return flattenNode(document, raw, pointer, new Set());
  if (!byRef.has(raw.$ref)) byRef.set(raw.$ref, flattenNode(document, raw, pointer, new Set()));
  return /** @type {Flat} */ (byRef.get(raw.$ref));
}

function flattenNode(document, raw, pointer, seen) {
  const out = emptyFlat();
  const visit = (node, nodePointer, trail, requiredHere) => {
    if (node?.[MERGED]) {
      node.allOf.forEach((part, i) => visit(part, node[MERGED][i], `${trail}/+${i}`, requiredHere));
      return;
    }
    if (node && typeof node.$ref === 'string' && Object.keys(node).length > 1) {
      // 3.1: the keywords beside a $ref apply together with its target.
      const { $ref, ...beside } = node;
      visit(beside, nodePointer, trail, requiredHere);
      visit({ $ref }, nodePointer, trail, requiredHere);
      return;
    }
    const [schema, at] = deref(document, node, nodePointer);
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    out.at ??= at;
    readValues(out, schema, at);
    readObject(out, schema, at, requiredHere);
    readArray(out, schema, at);
    readConstraints(out, schema, at);
    for (const { key: i, schema: part } of subschemas(schema, ['allOf'])) {
      recordPart(document, out, 'allOf', part, i, trail, at);
      visit(part, at && appendPointer(at, 'allOf', i), `${trail}/allOf#${i}`, requiredHere);
    }
    readBranches(document, out, schema, at, trail, requiredHere, seen);
  };
  visit(raw, pointer, '', true);
  return out;
}

/** Types, values and bounds; an allOf keeps the tighter of two bounds. */
function readValues(out, schema, at) {
  const said = (key) => { if (at) out.keywordAt[key] = `${at}/${key}`; };
  if (schema.type !== undefined) {
    const types = new Set([].concat(schema.type));
    out.types = out.types ? new Set([...out.types].filter((t) => types.has(t))) : types;
    said('type');
  }
  if (schema.format !== undefined) { out.format = schema.format; said('format'); }
  if (schema.const !== undefined) { out.enum = [schema.const]; out.isConst = true; said('const'); out.keywordAt.enum = out.keywordAt.const; }
  if (Array.isArray(schema.enum)) { out.enum = schema.enum; out.isConst = false; said('enum'); }
  if (schema.default !== undefined) { out.hasDefault = true; out.default = schema.default; said('default'); }
  if (typeof schema.pattern === 'string') { out.pattern = schema.pattern; said('pattern'); }
  for (const key of LOWER_BOUNDS) {
    if (typeof schema[key] === 'number' && !(out.bounds[key] >= schema[key])) { out.bounds[key] = schema[key]; said(key); }
  }
  for (const key of UPPER_BOUNDS) {
    if (typeof schema[key] === 'number' && !(out.bounds[key] <= schema[key])) { out.bounds[key] = schema[key]; said(key); }
  }
  if (typeof schema.multipleOf === 'number') { out.multipleOf = schema.multipleOf; said('multipleOf'); }
  if (schema.uniqueItems === true) { out.uniqueItems = true; said('uniqueItems'); }
  for (const flag of ['readOnly', 'writeOnly', 'deprecated']) {
    if (schema[flag] === true) { out.flags[flag] = true; said(flag); }
  }
}

function readObject(out, schema, at, requiredHere) {
  if (at && schema.properties) out.propertiesAt ??= `${at}/properties`;
  for (const [name, sub] of Object.entries(schema.properties || {})) {
    (out.props[name] ??= []).push(sub);
    (out.propAt[name] ??= []).push(at && appendPointer(at, 'properties', name));
    out.propOwner[name] ??= at;
  }
  if (requiredHere && Array.isArray(schema.required)) {
    if (at) out.requiredLists.add(at);
    schema.required.forEach((name, i) => {
      out.required.add(name);
      if (at && !out.requiredAt.has(name)) out.requiredAt.set(name, `${at}/required/${i}`);
    });
  }
  for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
    if (schema[keyword] === false) { out.closed = true; out.closedBy.add(keyword); }
  }
  if (schema.additionalProperties === false) out.constraints.set('additionalProperties', at && `${at}/additionalProperties`);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    out.additional.push(schema.additionalProperties);
    out.additionalAt.push(at && `${at}/additionalProperties`);
  }
  for (const [name, list] of Object.entries(schema.dependentRequired || {})) {
    out.dependentRequired.set(name, [...list].sort().join(', '));
    if (at) out.keywordAt[`dependentRequired/${name}`] = appendPointer(at, 'dependentRequired', name);
  }
}

function readArray(out, schema, at) {
  if (schema.items && typeof schema.items === 'object') { out.items.push(schema.items); out.itemsAt.push(at && `${at}/items`); }
  (schema.prefixItems || []).forEach((item, i) => {
    (out.prefixItems[i] ??= []).push(item);
    (out.prefixItemsAt[i] ??= []).push(at && `${at}/prefixItems/${i}`);
  });
}

function readConstraints(out, schema, at) {
  for (const keyword of PRESENCE) if (schema[keyword] !== undefined) out.constraints.set(keyword, at && `${at}/${keyword}`);
  for (const keyword of KEYED) {
    for (const key of Object.keys(schema[keyword] || {})) out.constraints.set(`${keyword}/${key}`, at && appendPointer(at, keyword, key));
  }
  if (schema.contentSchema && typeof schema.contentSchema === 'object') {
    out.contentSchemas.push(schema.contentSchema);
    out.contentSchemaAt.push(at && `${at}/contentSchema`);
  }
  for (const keyword of ['contentMediaType', 'contentEncoding']) {
    if (typeof schema[keyword] === 'string') {
      out.content[keyword] = schema[keyword];
      if (at) out.keywordAt[keyword] = `${at}/${keyword}`;
    }
  }
}

/** A schema that admits null and nothing else (`{type: 'null'}`, with annotations at most). @param {any} schema */
export const admitsOnlyNull = (schema) => Boolean(schema && typeof schema === 'object' && [].concat(schema.type ?? []).join() === 'null'
  && Object.keys(schema).every((key) => key === 'type' || ANNOTATIONS.has(key)));

/** An allOf part or a oneOf/anyOf branch, known by its $ref (or its place when inline). */
function recordPart(document, out, keyword, part, i, trail, at) {
  const id = isPlainRef(part) ? `${keyword}:${part.$ref}` : `${keyword}:${trail}#${i}`;
  const [target] = deref(document, part);
  const annotationOnly = Boolean(target && typeof target === 'object' && Object.keys(target).every((key) => ANNOTATIONS.has(key)));
  out.parts.set(id, { keyword, pointer: at && `${at}/${keyword}/${i}`, annotationOnly, nullOnly: admitsOnlyNull(target), target });
}

/** oneOf/anyOf: the branches' fields united, a field required only when every branch requires it. */
function readBranches(document, out, schema, at, trail, requiredHere, seen) {
  const branches = [...subschemas(schema, ['oneOf', 'anyOf'])];
  if (!branches.length) return;
  if (schema.oneOf) {
    out.hasOneOf = true;
    // One value branch beside null-only ones is the value's own schema: nothing to choose between.
    out.oneOfChoices = Math.max(out.oneOfChoices, schema.oneOf.filter((branch) => !admitsOnlyNull(deref(document, branch)[0])).length);
  }
  const each = branches.map(({ keyword, key: i, schema: branch }) => {
    recordPart(document, out, keyword, branch, i, trail, at);
    return flattenNode(document, branch, at && appendPointer(at, keyword, i), new Set(seen));
  });
  for (const b of each) {
    for (const [name, subs] of Object.entries(b.props)) {
      (out.props[name] ??= []).push(...subs);
      (out.propAt[name] ??= []).push(...b.propAt[name]);
      out.propOwner[name] ??= b.propOwner[name];
    }
    for (const list of b.requiredLists) out.requiredLists.add(list);
  }
  // A branch that admits only null (`anyOf: [{$ref}, {type: 'null'}]`, the 3.1 way to make a
  // reference nullable) adds null to the types and nothing else: what the other branches require
  // of a value still holds for every value that is not null.
  const valued = each.filter((b) => !(b.types?.size === 1 && b.types.has('null')));
  const nullable = valued.length < each.length;
  const judged = valued.length ? valued : each;
  if (requiredHere) {
    for (const name of judged.reduce((acc, b) => acc.filter((n) => b.required.has(n)), [...judged[0].required])) out.required.add(name);
  }
  const types = each.every((b) => b.types) ? new Set(each.flatMap((b) => [...b.types])) : null;
  if (types) out.types = out.types ? new Set([...out.types].filter((t) => types.has(t))) : types;
  if (judged.every((b) => b.enum)) {
    const union = [...new Set([...judged.flatMap((b) => b.enum), ...(nullable && valued.length ? [null] : [])])];
    // An enum of the schema itself still holds beside its branches: the values both allow.
    const text = (v) => JSON.stringify(v);
    out.enum = out.enum ? out.enum.filter((v) => union.some((u) => text(u) === text(v))) : union;
    out.isConst = false;
    const where = judged.map((b) => b.keywordAt.enum).find(Boolean);
    if (where) out.keywordAt.enum = where;
  }
  if (valued.length) readBranchBounds(out, valued);
}

/** The bounds, pattern and format every valued branch has: the loosest of each holds for the union. */
function readBranchBounds(out, valued) {
  const [first] = valued;
  for (const [keys, loosest, tighter] of [[LOWER_BOUNDS, Math.min, Math.max], [UPPER_BOUNDS, Math.max, Math.min]]) {
    for (const key of keys) {
      if (!valued.every((b) => typeof b.bounds[key] === 'number')) continue;
      const bound = loosest(...valued.map((b) => b.bounds[key]));
      out.bounds[key] = typeof out.bounds[key] === 'number' ? tighter(out.bounds[key], bound) : bound;
      out.keywordAt[key] ??= first.keywordAt[key];
    }
  }
  for (const key of ['pattern', 'format']) {
    if (out[key] === undefined && first[key] !== undefined && valued.every((b) => b[key] === first[key])) {
      out[key] = first[key];
      out.keywordAt[key] ??= first.keywordAt[key];
    }
  }
}
