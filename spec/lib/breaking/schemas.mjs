// Compares the schema a value must satisfy before and after, from the side of the client that
// sends it (`request`: what the server accepts must not shrink) or reads it (`response`: what the
// server may answer must not grow). Returns relative findings: `rel` is the field below the
// compared schema (`data[].label`, '' for the schema itself), `text(label)` the message once the
// caller knows the field's full name, `pointer` where the change is in the second bundle.
//
// A comparison of two `$ref`s is made once per pair of targets and reused by every operation
// that reaches them (the shared error body, a resource read by many operations), which keeps a
// comparison of the whole bundle fast.
import { schemaLevel } from './codes.mjs';
import { flatten, isPlainRef, LOWER_BOUNDS, merged, UPPER_BOUNDS } from './flatten.mjs';

/** @typedef {{ code: string, rel: string, text: (label: string) => string, pointer: string | undefined }} SchemaFinding */
/**
 * @typedef {object} SchemaContext
 * @property {any} before the first bundle
 * @property {any} after the second bundle
 * @property {Map<string, SchemaFinding[]>} cache comparisons of `$ref` pairs
 * @property {Set<string>} active `$ref` pairs being compared (a cycle ends there)
 * @property {Map<string, import('./flatten.mjs').Flat>} flatBefore flattened `$ref` targets of the first bundle
 * @property {Map<string, import('./flatten.mjs').Flat>} flatAfter and of the second
 * @property {Map<string, any[][]>} memo what comparing two shared components (a response, a
 *   header) reported, by the pair of `$ref`s: every operation that uses them reports it again
 */

const MAX_DEPTH = 40; // inline nesting only; $ref cycles end through `active`
const show = (values) => values.map((v) => JSON.stringify(v)).join(', ');
const typeList = (types) => [...types].join(' or ');
// A value of type `t` satisfies a schema of `types` (an integer is a number).
const fits = (t, types) => types.has(t) || (t === 'integer' && types.has('number'));
const same = (v) => (w) => JSON.stringify(w) === JSON.stringify(v);
const ANYTHING = /^\^?(\.\*|\[\\s\\S\]\*)\$?$/;

/** The field `rel` below `prefix`: `data` + `[]` → `data[]`, `data[]` + `label` → `data[].label`. */
export const joinField = (prefix, rel) => (!rel ? prefix : !prefix ? rel : rel.startsWith('[') ? `${prefix}${rel}` : `${prefix}.${rel}`);

/** @returns {SchemaContext} */
export const schemaContext = (before, after) => ({ before, after, cache: new Map(), active: new Set(), flatBefore: new Map(), flatAfter: new Map(), memo: new Map() });

/**
 * @param {SchemaContext} ctx @param {'request' | 'response'} side
 * @param {any} rawA the schema node in the first bundle @param {any} rawB the schema node in the second
 * @param {string | undefined} pointerB where rawB is in the second bundle
 * @param {{ textual?: boolean }} [options] `textual`: a header's schema (text on the wire)
 * @returns {SchemaFinding[]}
 */
export function compareSchemas(ctx, side, rawA, rawB, pointerB, options = {}, depth = 0) {
  if (rawA === undefined || rawB === undefined || depth > MAX_DEPTH) return [];
  const key = isPlainRef(rawA) && isPlainRef(rawB) ? `${side}|${options.textual ? 'text' : ''}|${rawA.$ref}|${rawB.$ref}` : null;
  if (key) {
    if (ctx.cache.has(key)) return ctx.cache.get(key);
    if (ctx.active.has(key)) return [];
    ctx.active.add(key);
  }
  const a = flatten(ctx.before, rawA, undefined, ctx.flatBefore);
  const b = flatten(ctx.after, rawB, pointerB, ctx.flatAfter);
  /** @type {SchemaFinding[]} */
  const out = [];
  const emit = (aspect, rel, text, pointer) => out.push({ code: `${side}-${aspect}`, rel, text, pointer: pointer ?? b.at });
  const at = (keyword) => b.keywordAt[keyword] ?? b.at;
  compareTypes(side, a, b, emit, at, options);
  compareValues(side, a, b, emit, at);
  compareBounds(side, a, b, emit, at);
  comparePattern(side, a, b, emit, at);
  compareFlags(a, b, emit, at);
  compareProperties(side, a, b, emit);
  compareConstraints(a, b, emit, at);
  // Whether the field-by-field comparison of this schema found something that breaks this side.
  const narrower = out.some((f) => schemaLevel(f.code.slice(side.length + 1), side) === 'breaking');
  compareParts(a, b, emit, narrower);
  compareTuples(a, b, emit);
  const below = (rel, subA, subB, pointer) => {
    for (const f of compareSchemas(ctx, side, subA, subB, pointer, {}, depth + 1)) out.push({ ...f, rel: joinField(rel, f.rel) });
  };
  for (const name of Object.keys(a.props)) {
    if (b.props[name]) below(name, merged(a.props[name]), merged(b.props[name], b.propAt[name]), b.propAt[name][0]);
  }
  if (a.items.length && b.items.length) below('[]', merged(a.items), merged(b.items, b.itemsAt), b.itemsAt[0]);
  a.prefixItems.forEach((items, i) => {
    if (b.prefixItems[i]) below(`[${i}]`, merged(items), merged(b.prefixItems[i], b.prefixItemsAt[i]), b.prefixItemsAt[i][0]);
  });
  if (a.additional.length && b.additional.length) below('*', merged(a.additional), merged(b.additional, b.additionalAt), b.additionalAt[0]);
  if (a.contentSchemas.length && b.contentSchemas.length) below('', merged(a.contentSchemas), merged(b.contentSchemas, b.contentSchemaAt), b.contentSchemaAt[0]);
  if (key) {
    ctx.active.delete(key);
    ctx.cache.set(key, out);
  }
  return out;
}

/** Types and formats: a type or format lost narrows, one gained widens. */
function compareTypes(side, a, b, emit, at, { textual }) {
  const describe = (f) => `${f}: type ${a.types ? typeList(a.types) : 'any'} → ${b.types ? typeList(b.types) : 'any'}`;
  if (a.types && b.types) {
    const lost = [...a.types].filter((t) => !fits(t, b.types));
    const gained = [...b.types].filter((t) => !fits(t, a.types));
    // A header is text: a reader of a string header still reads the new one.
    if (textual && side === 'response' && a.types.has('string') && !b.types.has('string')) emit('type-compatible', '', describe, at('type'));
    else {
      if (lost.length) emit('type-narrowed', '', describe, at('type'));
      if (gained.length) emit('type-widened', '', describe, at('type'));
    }
  } else if (!a.types && b.types) emit('type-narrowed', '', describe, at('type'));
  else if (a.types && !b.types) emit('type-widened', '', describe, b.at);
  if (a.format === b.format) return;
  const describeFormat = (f) => `${f}: format ${a.format ?? 'none'} → ${b.format ?? 'none'}`;
  if (a.format === undefined) emit('type-narrowed', '', describeFormat, at('format'));
  else if (b.format === undefined) emit('type-widened', '', describeFormat, b.at);
  else emit(side === 'request' ? 'type-narrowed' : 'type-widened', '', describeFormat, at('format'));
}

/** enum, const and default. */
function compareValues(side, a, b, emit, at) {
  const removed = a.enum && b.enum ? a.enum.filter((v) => !b.enum.some(same(v))) : [];
  const added = a.enum && b.enum ? b.enum.filter((v) => !a.enum.some(same(v))) : [];
  if (side === 'response' && a.isConst && !(b.enum?.length === 1 && same(a.enum[0])(b.enum[0]))) {
    emit('const-changed', '', (f) => `${f} is no longer always ${show(a.enum)}${b.enum ? ` (now ${show(b.enum)})` : ''}`, at('enum'));
  } else if (a.enum && (!b.enum || added.length)) {
    emit('enum-widened', '', (f) => (b.enum ? `${f} may now be ${show(added)}` : `${f} is no longer limited to ${show(a.enum)}`), b.enum ? at('enum') : b.at);
  }
  if (b.enum && (!a.enum || removed.length)) {
    emit('enum-narrowed', '', (f) => (a.enum ? `${f} no longer takes ${show(removed)}` : `${f} is now limited to ${show(b.enum)}`), at('enum'));
  }
  if (a.hasDefault !== b.hasDefault || (a.hasDefault && !same(a.default)(b.default))) {
    emit('default-changed', '', (f) => `${f}: default ${a.hasDefault ? JSON.stringify(a.default) : 'none'} → ${b.hasDefault ? JSON.stringify(b.default) : 'none'}`, b.hasDefault ? at('default') : b.at);
  }
}

/** Numeric bounds, multipleOf and uniqueItems. */
function compareBounds(side, a, b, emit, at) {
  const bound = (key, narrowed) => {
    const text = (f) => `${f}: ${key} ${a.bounds[key] ?? a[key] ?? 'none'} → ${b.bounds[key] ?? b[key] ?? 'none'}`;
    emit(narrowed ? 'range-narrowed' : 'range-widened', '', text, b.bounds[key] !== undefined || b[key] !== undefined ? at(key) : b.at);
  };
  for (const key of LOWER_BOUNDS) {
    const [x, y] = [a.bounds[key], b.bounds[key]];
    if (x !== y) bound(key, y !== undefined && (x === undefined || y > x));
  }
  for (const key of UPPER_BOUNDS) {
    const [x, y] = [a.bounds[key], b.bounds[key]];
    if (x !== y) bound(key, y !== undefined && (x === undefined || y < x));
  }
  const [m, n] = [a.multipleOf, b.multipleOf];
  if (m !== n) {
    // Every multiple of m is one of n when m is a multiple of n: that widens; the reverse narrows.
    const widens = n === undefined || (m !== undefined && Number.isInteger(m / n));
    const narrows = m === undefined || Number.isInteger(n / m);
    bound('multipleOf', widens ? false : narrows ? true : side === 'request');
  }
  if (a.uniqueItems !== b.uniqueItems) bound('uniqueItems', b.uniqueItems);
}

function comparePattern(side, a, b, emit, at) {
  if (a.pattern === b.pattern) return;
  const text = (f) => `${f}: pattern ${a.pattern ?? 'none'} → ${b.pattern ?? 'none'}`;
  if (a.pattern === undefined) emit('pattern-added', '', text, at('pattern'));
  else if (b.pattern === undefined) emit('pattern-removed', '', text, b.at);
  else if (side === 'request' && ANYTHING.test(b.pattern)) emit('pattern-generalized', '', text, at('pattern'));
  else emit('pattern-changed', '', text, at('pattern'));
}

/** deprecated, readOnly and writeOnly of the schema itself (a field's, reported under its name). */
function compareFlags(a, b, emit, at) {
  if (b.flags.deprecated && !a.flags.deprecated) emit('property-deprecated', '', (f) => `${f} is deprecated`, at('deprecated'));
  if (a.flags.deprecated && !b.flags.deprecated) emit('property-reactivated', '', (f) => `${f} is no longer deprecated`, b.at);
  for (const flag of ['readOnly', 'writeOnly']) {
    if (a.flags[flag] !== b.flags[flag]) emit('property-access-changed', '', (f) => `${f} is ${b.flags[flag] ? 'now' : 'no longer'} ${flag}`, b.flags[flag] ? at(flag) : b.at);
  }
}

function compareProperties(side, a, b, emit) {
  for (const name of Object.keys(a.props)) {
    const inA = a.required.has(name);
    if (!b.props[name]) {
      const where = b.propertiesAt ?? b.at;
      if (side === 'response') emit(inA ? 'property-removed' : 'optional-property-removed', name, (f) => `${f} was removed from the response`, where);
      else if (b.closed) emit('property-removed', name, (f) => `${f} was removed and the body rejects unknown fields`, where);
      else emit('property-removed-open', name, (f) => `${f} was removed from the request (the server no longer reads it)`, where);
      continue;
    }
    // The `required` list of the schema that declares the field, or the field when it has none.
    const owner = b.propOwner[name];
    const requiredList = owner && b.requiredLists.has(owner) ? `${owner}/required` : b.propAt[name][0];
    if (side === 'response' && inA && !b.required.has(name)) emit('property-optional', name, (f) => `${f} is no longer always present`, requiredList);
    if (side === 'response' && !inA && b.required.has(name)) emit('property-required', name, (f) => `${f} is now always present`, b.requiredAt.get(name) ?? requiredList);
    if (side === 'request' && inA && !b.required.has(name)) emit('property-optional', name, (f) => `${f} is no longer required`, requiredList);
  }
  if (side === 'request') {
    for (const name of b.required) {
      if (!a.required.has(name)) emit('property-required', name, (f) => `${f} is now required${a.props[name] ? '' : ' (a new field)'}`, b.requiredAt.get(name) ?? b.at);
    }
  }
  for (const name of Object.keys(b.props)) {
    if (!a.props[name]) emit('property-added', name, (f) => `${f} was added to the ${side}${side === 'request' && !b.required.has(name) ? ' (optional)' : ''}`, b.propAt[name][0] ?? b.at);
  }
}

/**
 * Keywords compared by presence, dependentRequired, contentMediaType and contentEncoding. An
 * object closed before and after (`additionalProperties: false` traded for `unevaluatedProperties:
 * false`, as a body split into allOf parts needs) is no narrower for it: a field it no longer
 * declares is reported by compareProperties.
 */
function compareConstraints(a, b, emit, at) {
  const name = (key) => (key.includes('/') ? `${key.split('/')[0]} "${key.split('/').slice(1).join('/')}"` : key);
  const stillClosed = (flat, key) => a.closed && b.closed && flat.closedBy.has(key);
  for (const [key, pointer] of b.constraints) {
    if (!a.constraints.has(key) && !stillClosed(b, key)) emit('constraint-added', '', (f) => `${f}: ${name(key)} added`, pointer ?? b.at);
  }
  for (const key of a.constraints.keys()) {
    if (!b.constraints.has(key) && !stillClosed(a, key)) emit('constraint-removed', '', (f) => `${f}: ${name(key)} removed`, b.at);
  }
  for (const [field, list] of b.dependentRequired) {
    const was = a.dependentRequired.get(field);
    if (was === undefined) emit('constraint-added', '', (f) => `${f}: ${field} now requires ${list}`, at(`dependentRequired/${field}`));
    else if (was !== list) emit('constraint-changed', '', (f) => `${f}: ${field} requires ${list} (was ${was})`, at(`dependentRequired/${field}`));
  }
  for (const [field, list] of a.dependentRequired) {
    if (!b.dependentRequired.has(field)) emit('constraint-removed', '', (f) => `${f}: ${field} no longer requires ${list}`, b.at);
  }
  for (const keyword of ['contentMediaType', 'contentEncoding']) {
    if (a.content[keyword] !== b.content[keyword]) emit('constraint-changed', '', (f) => `${f}: ${keyword} ${a.content[keyword] ?? 'none'} → ${b.content[keyword] ?? 'none'}`, at(keyword));
  }
}

// What an allOf part may say and still be judged field by field once flatten.mjs merged it: types
// (intersected), fields and their schemas, required fields (united), bounds (the tighter kept),
// items, flags, dependentRequired, annotations. A part with anything else (enum, pattern, format,
// multipleOf, a closing keyword of its own, branches, conditions) is judged as a part.
const JUDGED_BY_FIELDS = new Set(['type', 'properties', 'required', 'items', 'uniqueItems', 'readOnly', 'writeOnly', 'deprecated',
  'dependentRequired', 'title', 'description', 'examples', 'default', 'externalDocs', '$comment', ...LOWER_BOUNDS, ...UPPER_BOUNDS]);
const judgedByFields = (part) => Boolean(part.target && typeof part.target === 'object' && Object.keys(part.target).every((key) => JUDGED_BY_FIELDS.has(key)));

/** A flat schema's oneOf/anyOf branches that admit more than null. */
const valueBranches = (flat) => [...flat.parts.values()].filter((p) => p.keyword !== 'allOf' && !p.nullOnly);

/**
 * Whether a oneOf/anyOf branch of `flat` is not an alternative: one that admits only null (the
 * type comparison reports null), or the one value branch of a schema whose other side had none
 * (`anyOf: [{$ref}, {type: null}]` for a nullable reference: its rules are compared field by field).
 */
const ownSchema = (part, flat, other) => part.keyword !== 'allOf'
  && (part.nullOnly || (valueBranches(flat).length === 1 && valueBranches(other).length === 0));

/**
 * allOf parts and oneOf/anyOf branches added or removed, known by their $ref or place; a part
 * that only moved or was renamed (the same schema under another name or index) is neither. An
 * allOf part judged field by field, where that comparison found nothing breaking (`narrower`), is a
 * restructuring: a closed body split into a shared part and its own, or merged back.
 */
function compareParts(a, b, emit, narrower) {
  const wrapped = !a.hasOneOf && b.oneOfChoices > 1;
  if (wrapped) emit('wrapped-in-one-of', '', (f) => `${f} became a oneOf: a value valid before may match several alternatives, or none`, [...b.parts.values()].find((p) => p.keyword === 'oneOf')?.pointer);
  const added = [...b.parts].filter(([id, part]) => !a.parts.has(id) && !(wrapped && part.keyword === 'oneOf') && !ownSchema(part, b, a));
  const removed = [...a.parts].filter(([id, part]) => !b.parts.has(id) && !ownSchema(part, a, b));
  const same = (x, y) => x.keyword === y.keyword && JSON.stringify(x.target) === JSON.stringify(y.target);
  const moved = new Set();
  for (const [, part] of added) {
    const twin = removed.find(([id, old]) => !moved.has(id) && same(old, part));
    if (twin) { moved.add(twin[0]); continue; }
    if (part.keyword === 'allOf' && !part.annotationOnly && !narrower && judgedByFields(part)) emit('restructured', '', (f) => `${f}: allOf part added (a restructuring: its rules are compared field by field)`, part.pointer);
    else if (part.keyword === 'allOf') emit(part.annotationOnly ? 'annotation-changed' : 'constraint-added', '', (f) => `${f}: allOf part added${part.annotationOnly ? ' (annotations only)' : ''}`, part.pointer);
    else emit('alternative-added', '', (f) => `${f}: ${part.keyword} alternative added`, part.pointer);
  }
  for (const [id, part] of removed) {
    if (moved.has(id)) continue;
    if (part.keyword === 'allOf' && !part.annotationOnly && !narrower && judgedByFields(part)) emit('restructured', '', (f) => `${f}: allOf part removed (a restructuring: its rules are compared field by field)`, b.at);
    else if (part.keyword === 'allOf') emit(part.annotationOnly ? 'annotation-changed' : 'constraint-removed', '', (f) => `${f}: allOf part removed${part.annotationOnly ? ' (annotations only)' : ''}`, b.at);
    else emit('alternative-removed', '', (f) => `${f}: ${part.keyword} alternative removed`, b.at);
  }
}

function compareTuples(a, b, emit) {
  const length = Math.max(a.prefixItems.length, b.prefixItems.length);
  for (let i = 0; i < length; i++) {
    if (b.prefixItems[i] && !a.prefixItems[i]) emit('prefix-item-added', '', (f) => `${f}: prefixItems[${i}] added`, b.prefixItemsAt[i][0]);
    if (a.prefixItems[i] && !b.prefixItems[i]) emit('prefix-item-removed', '', (f) => `${f}: prefixItems[${i}] removed`, b.at);
  }
}
