// The `X-Filter` language of list operations, derived from the bundle's `x-filterable` marks: one
// module for the bundle step (per-operation filter schemas), the reference server, the mock and
// the contract kit, so the grammar, its limits and its 400 reasons are written once.
//
//   {"label": "a", "tags": {"+contains": "prod"}, "+or": [{"size": {"+gt": 10}}, {...}],
//    "+order_by": "created", "+order": "desc"}
//
// A key is a filterable field (equality), `+and`/`+or` take arrays of such objects, a field's value
// may be an object with exactly one operator. spec/DECISIONS.md section "Filtering" says why.
import { FILTER_HEADER } from './filter-header.mjs';
import { ownProperties as declaredProperties } from './schema-walk.mjs';
import { deref } from './walk.mjs';

export { FILTER_HEADER, encodeFilterHeader } from './filter-header.mjs';

/**
 * @typedef {'text' | 'integer' | 'number' | 'timestamp' | 'boolean' | 'tags'} FieldKind
 * @typedef {{ kind: FieldKind, nullable: boolean, enum?: string[] }} FieldSpec
 * @typedef {{ operationId: string, fields: Record<string, FieldSpec>, orderable: string[], orderKinds: Record<string, FieldSpec>, path?: string, method?: string }} FilterSpec
 *   one list operation's filter: `path` and `method` when it comes from `filterSpecs`
 * @typedef {'eq' | '+neq' | '+gt' | '+gte' | '+lt' | '+lte' | '+contains'} Operator
 * @typedef {{ field: string, op: Operator, value: string | number | boolean | null }} Condition
 * @typedef {{ and: Where[] } | { or: Where[] } | Condition} Where
 * @typedef {{ where: Where | null, orderBy: string | null, order: 'asc' | 'desc' | null }} ParsedFilter
 */

/** Bounds on a filter, so a header cannot make a query of unbounded size. */
export const FILTER_LIMITS = Object.freeze({
  /** Characters of the header's JSON text. */
  length: 4096,
  /** Levels of `+and`/`+or` nesting below the top-level object. */
  depth: 4,
  /** Entries of one `+and` or `+or` array. */
  items: 16,
  /** Field conditions in the whole filter. */
  conditions: 48,
});

/** Operators each kind of field allows (equality needs none). */
export const OPERATORS = Object.freeze({
  text: ['+neq', '+contains'],
  integer: ['+neq', '+gt', '+gte', '+lt', '+lte'],
  number: ['+neq', '+gt', '+gte', '+lt', '+lte'],
  timestamp: ['+neq', '+gt', '+gte', '+lt', '+lte'],
  boolean: ['+neq'],
  tags: ['+neq', '+contains'],
});
const ALL_OPERATORS = ['+neq', '+gt', '+gte', '+lt', '+lte', '+contains'];
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
/** The pattern of the spec's Timestamp schema, which marks a field as a timestamp. */
const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$';
/** Server-set fields a list may also be ordered by when its items have them. */
const ORDER_ALSO = ['id', 'created', 'updated'];

// ---------------------------------------------------------------- fields from the marks

/** Types of a schema after `$ref`s and a `oneOf`/`anyOf` with `null`: { types, schema }. */
function flatten(document, raw) {
  const [schema] = deref(document, raw);
  if (!schema || typeof schema !== 'object') return { types: [], schema: {} };
  const branches = schema.oneOf || schema.anyOf;
  if (Array.isArray(branches) && !schema.type) {
    const parts = branches.map((b) => flatten(document, b));
    const main = parts.find((p) => !p.types.every((t) => t === 'null')) || parts[0];
    return { types: [...new Set(parts.flatMap((p) => p.types))], schema: { ...main.schema, description: schema.description } };
  }
  return { types: Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [], schema };
}

/** The kind of a marked field: { kind, nullable, enum? }, or null when no kind fits. @param {any} document @param {unknown} raw @returns {FieldSpec | null} */
export function fieldKind(document, raw) {
  const { types, schema } = flatten(document, raw);
  const nullable = types.includes('null');
  const main = types.filter((t) => t !== 'null');
  if (main.length !== 1) return null;
  const [type] = main;
  if (type === 'array') {
    const { types: itemTypes } = flatten(document, schema.items);
    return itemTypes.length === 1 && itemTypes[0] === 'string' ? { kind: 'tags', nullable: false } : null;
  }
  if (type === 'string') {
    const isTimestamp = schema.pattern === TIMESTAMP_PATTERN;
    const enumValues = Array.isArray(schema.enum) ? schema.enum.filter((v) => v !== null) : undefined;
    return { kind: isTimestamp ? 'timestamp' : 'text', nullable, ...(enumValues ? { enum: enumValues } : {}) };
  }
  if (type === 'integer' || type === 'number' || type === 'boolean') return { kind: type, nullable };
  return null;
}

/** The properties an object schema of the bundle declares, its allOf parts' included. */
const ownProperties = (document, raw) => declaredProperties(raw, { resolve: (node) => deref(document, node)[0] });

/** Marked fields of an item schema (dotted paths for nested objects): { name: kind }. */
export function filterableFields(document, itemSchema, prefix = '', seen = new Set()) {
  const fields = {};
  for (const [name, raw] of Object.entries(ownProperties(document, itemSchema))) {
    const [resolved] = deref(document, raw);
    const marked = raw && (raw['x-filterable'] === true || (resolved && resolved['x-filterable'] === true));
    if (marked) {
      const kind = fieldKind(document, raw);
      if (kind) fields[prefix + name] = kind;
    } else if (resolved && resolved.type === 'object' && resolved.properties && !seen.has(resolved)) {
      Object.assign(fields, filterableFields(document, resolved, `${prefix}${name}.`, new Set(seen).add(resolved)));
    }
  }
  return fields;
}

/** The item schema of a GET answering the paginated envelope `{data: [...], page, pages, results}`. */
export function listItemSchema(document, operation) {
  const media = operation?.responses?.['200'] && deref(document, operation.responses['200'])[0]?.content?.['application/json'];
  if (!media) return null;
  const props = ownProperties(document, media.schema);
  if (!props.data || !props.page || !props.pages || !props.results) return null;
  const [data] = deref(document, props.data);
  return data && data.items ? data.items : null;
}

/**
 * The filter of one list operation: its fields (from the marks) and the fields it may be ordered
 * by (the scalar marked fields, and `id`, `created`, `updated` when the items have them).
 * @param {any} document @param {any} operation
 * @returns {FilterSpec | null}
 */
export function filterSpecOf(document, operation) {
  const items = listItemSchema(document, operation);
  if (!items) return null;
  const fields = filterableFields(document, items);
  if (!Object.keys(fields).length) return null;
  const props = ownProperties(document, items);
  const orderable = Object.keys(fields).filter((f) => fields[f].kind !== 'tags');
  for (const name of ORDER_ALSO) {
    if (props[name] && !orderable.includes(name)) {
      const kind = fieldKind(document, props[name]);
      if (kind && kind.kind !== 'tags') orderable.push(name);
    }
  }
  const orderKinds = Object.fromEntries(orderable.map((f) => [f, fields[f] || fieldKind(document, props[f])]));
  return { operationId: operation.operationId, fields, orderable, orderKinds };
}

/** Every list operation with filterable fields: Map operationId → spec (with path and method). @param {any} document @returns {Map<string, FilterSpec>} */
export function filterSpecs(document) {
  const out = new Map();
  for (const [path, item] of Object.entries(document.paths || {})) {
    const operation = item && item.get;
    const spec = operation && filterSpecOf(document, operation);
    if (spec) out.set(spec.operationId, { ...spec, path, method: 'get' });
  }
  return out;
}

// ---------------------------------------------------------------- parsing and validation

/** A filter that breaks the grammar; `reason` names the offending field or operator. */
export class FilterError extends Error {
  /** @param {string} reason */
  constructor(reason) {
    super(reason);
    this.name = 'FilterError';
    this.reason = reason;
  }
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const show = (v) => JSON.stringify(v).slice(0, 60);

/** Epoch ms of a timestamp `YYYY-MM-DDTHH:MM:SS` (UTC), or NaN when it is not a real moment. @param {unknown} value @returns {number} */
export function timestampMs(value) {
  const m = typeof value === 'string' && TIMESTAMP.exec(value);
  if (!m) return Number.NaN;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return new Date(ms).toISOString().slice(0, 19) === value ? ms : Number.NaN;
}

function checkValue(field, kind, operator, value) {
  const where = `"${field}"${operator ? ` ${operator}` : ''}`;
  if (value === null) {
    if ((operator === undefined || operator === '+neq') && kind.nullable) return;
    throw new FilterError(`${where} cannot be null${kind.nullable ? ' with this operator' : ': the field is never null'}`);
  }
  switch (kind.kind) {
    case 'text':
    case 'tags':
      if (typeof value !== 'string') throw new FilterError(`${where} takes a string, not ${show(value)}`);
      // Neither engine stores U+0000, and a lone surrogate has no UTF-8 form: no stored text can match.
      if (value.includes('\u0000') || !value.isWellFormed()) throw new FilterError(`${where} takes well-formed Unicode text without U+0000`);
      if (kind.enum && operator !== '+contains' && !kind.enum.includes(value)) throw new FilterError(`${where} takes one of ${kind.enum.join(', ')}, not ${show(value)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw new FilterError(`${where} takes true or false, not ${show(value)}`);
      return;
    case 'integer':
      if (!Number.isSafeInteger(value)) throw new FilterError(`${where} takes an integer between -(2^53-1) and 2^53-1, not ${show(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new FilterError(`${where} takes a finite number, not ${show(value)}`);
      return;
    case 'timestamp':
      if (Number.isNaN(timestampMs(value))) throw new FilterError(`${where} takes a timestamp such as 2018-01-01T00:01:01, not ${show(value)}`);
      return;
    default:
      throw new FilterError(`${where} cannot be filtered`);
  }
}

/**
 * Parses and checks an `X-Filter` header against a list's filter spec. Answers
 * `{ where, orderBy, order }`: `where` is a tree of `{and: [...]}`, `{or: [...]}` and
 * `{field, op, value}` (op `eq`, `+neq`, `+gt`, ...), null when nothing is filtered.
 * Throws FilterError with a reason naming the offending field or operator.
 * @param {unknown} text @param {FilterSpec} spec
 * @returns {ParsedFilter}
 */
export function parseFilter(text, spec) {
  if (typeof text !== 'string') throw new FilterError('must be a JSON object sent as one header');
  if (text.length > FILTER_LIMITS.length) throw new FilterError(`is ${text.length} characters long, over the limit of ${FILTER_LIMITS.length}`);
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new FilterError(`is not valid JSON (${error.message.slice(0, 80)})`);
  }
  if (!isPlainObject(raw)) throw new FilterError('must be a JSON object');
  let orderBy = null;
  let order = null;
  if (has(raw, '+order_by')) {
    orderBy = raw['+order_by'];
    if (typeof orderBy !== 'string' || !spec.orderable.includes(orderBy)) {
      throw new FilterError(`"+order_by" takes one of ${spec.orderable.join(', ')}, not ${show(orderBy)}`);
    }
  }
  if (has(raw, '+order')) {
    order = raw['+order'];
    if (order !== 'asc' && order !== 'desc') throw new FilterError(`"+order" takes asc or desc, not ${show(order)}`);
    if (orderBy === null) throw new FilterError('"+order" needs "+order_by"');
  }
  const counter = { conditions: 0 };
  const where = clause(raw, spec, 0, counter, true);
  return { where: where.and.length ? where : null, orderBy, order: orderBy === null ? null : order || 'asc' };
}

function clause(object, spec, depth, counter, top) {
  const and = [];
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (key === '+order_by' || key === '+order') {
      if (top) continue;
      throw new FilterError(`"${key}" belongs at the top level, not inside "+and" or "+or"`);
    }
    if (key === '+and' || key === '+or') {
      if (depth + 1 > FILTER_LIMITS.depth) throw new FilterError(`"${key}" nests deeper than ${FILTER_LIMITS.depth} levels`);
      if (!Array.isArray(value) || value.length === 0) throw new FilterError(`"${key}" takes a non-empty array of filter objects`);
      if (value.length > FILTER_LIMITS.items) throw new FilterError(`"${key}" has ${value.length} entries, over the limit of ${FILTER_LIMITS.items}`);
      const parts = value.map((entry) => {
        if (!isPlainObject(entry)) throw new FilterError(`"${key}" takes filter objects, not ${show(entry)}`);
        return clause(entry, spec, depth + 1, counter, false);
      });
      and.push(key === '+and' ? { and: parts } : { or: parts });
      continue;
    }
    if (key.startsWith('+')) throw new FilterError(`"${key}" is not an operator here: use it on a field, as {"field": {"${key}": value}}`);
    if (!has(spec.fields, key)) throw new FilterError(`"${key}" is not a filterable field; filterable: ${Object.keys(spec.fields).join(', ')}`);
    const kind = spec.fields[key];
    counter.conditions += 1;
    if (counter.conditions > FILTER_LIMITS.conditions) throw new FilterError(`has more than ${FILTER_LIMITS.conditions} conditions`);
    if (isPlainObject(value)) {
      const ops = Object.keys(value);
      if (ops.length !== 1) throw new FilterError(`"${key}" takes exactly one operator in its object, not ${ops.length}`);
      const [op] = ops;
      if (!ALL_OPERATORS.includes(op)) throw new FilterError(`"${op}" on "${key}" is not an operator; operators: ${ALL_OPERATORS.join(', ')}`);
      if (!OPERATORS[kind.kind].includes(op)) throw new FilterError(`"${op}" does not apply to "${key}" (${kind.kind}); it takes ${OPERATORS[kind.kind].join(', ')}`);
      checkValue(key, kind, op, value[op]);
      and.push({ field: key, op, value: value[op] });
    } else {
      checkValue(key, kind, undefined, value);
      and.push({ field: key, op: 'eq', value });
    }
  }
  return { and };
}

// ---------------------------------------------------------------- in memory

/** The value of a dotted field of an item. @param {unknown} item @param {string} field @returns {any} */
export function fieldValue(item, field) {
  let at = item;
  for (const part of field.split('.')) at = at !== null && typeof at === 'object' && has(at, part) ? at[part] : undefined;
  return at === undefined ? null : at;
}

/** Whether an item (as the API shows it) satisfies a parsed `where`. @param {unknown} item @param {Where | null} where @param {FilterSpec} spec @returns {boolean} */
export function matchesFilter(item, where, spec) {
  if (!where) return true;
  if (where.and) return where.and.every((w) => matchesFilter(item, w, spec));
  if (where.or) return where.or.some((w) => matchesFilter(item, w, spec));
  const actual = fieldValue(item, where.field);
  const { value, op } = where;
  if (spec.fields[where.field].kind === 'tags') {
    const tags = Array.isArray(actual) ? actual : [];
    if (op === 'eq') return tags.includes(value);
    if (op === '+neq') return !tags.includes(value);
    return tags.some((t) => t.includes(value));
  }
  switch (op) {
    case 'eq': return actual === value;
    case '+neq': return actual !== value;
    case '+contains': return typeof actual === 'string' && actual.includes(value);
    default: {
      if (actual === null) return false;
      if (op === '+gt') return actual > value;
      if (op === '+gte') return actual >= value;
      if (op === '+lt') return actual < value;
      return actual <= value;
    }
  }
}

/** Code-point order of two strings (what both SQL engines use for text, unlike JS's UTF-16 order). @param {string} a @param {string} b @returns {number} */
export function byCodePoint(a, b) {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0) - y[i].codePointAt(0);
  }
  return x.length - y.length;
}

/** Orders items as `+order_by`/`+order` say: nulls last, then the id as tie-break. @param {string} orderBy @param {'asc' | 'desc' | null} order @returns {(x: unknown, y: unknown) => number} */
export function compareItems(orderBy, order) {
  const sign = order === 'desc' ? -1 : 1;
  const cmp = (a, b) => (typeof a === 'string' && typeof b === 'string' ? byCodePoint(a, b) : a < b ? -1 : a > b ? 1 : 0);
  return (x, y) => {
    const a = fieldValue(x, orderBy);
    const b = fieldValue(y, orderBy);
    if (a === null || b === null) {
      if (a !== b) return a === null ? 1 : -1;
    } else if (a !== b) {
      return sign * cmp(typeof a === 'boolean' ? Number(a) : a, typeof b === 'boolean' ? Number(b) : b);
    }
    return sign * cmp(fieldValue(x, 'id'), fieldValue(y, 'id'));
  };
}

/**
 * Filters and orders a list held in memory (the mock, the server's catalogue lists).
 * @template T
 * @param {T[]} items @param {ParsedFilter} parsed @param {FilterSpec} spec
 * @returns {T[]}
 */
export function applyFilterInMemory(items, parsed, spec) {
  const kept = items.filter((item) => matchesFilter(item, parsed.where, spec));
  return parsed.orderBy ? kept.sort(compareItems(parsed.orderBy, parsed.order)) : kept;
}

// ---------------------------------------------------------------- schemas for the bundle

function valueSchema(kind) {
  const base = kind.kind === 'tags' || kind.kind === 'text' || kind.kind === 'timestamp' ? 'string' : kind.kind;
  const scalar = { type: kind.nullable ? [base, 'null'] : base };
  if (kind.kind === 'timestamp') scalar.pattern = TIMESTAMP_PATTERN;
  if (kind.enum) scalar.enum = kind.enum;
  const operand = { type: base, ...(kind.kind === 'timestamp' ? { pattern: TIMESTAMP_PATTERN } : {}) };
  const properties = Object.fromEntries(OPERATORS[kind.kind].map((op) => [op, op === '+neq' ? scalar : op === '+contains' ? { type: 'string' } : operand]));
  const described = kind.kind === 'tags' ? 'A tag the item has, or one operator' : 'The value to match, or one operator';
  return {
    description: `${described}: ${OPERATORS[kind.kind].join(', ')}.`,
    anyOf: [kind.kind === 'tags' ? { type: 'string' } : scalar, { title: 'X-Filter operator', type: 'object', properties, minProperties: 1, maxProperties: 1, additionalProperties: false }],
  };
}

/** Name of an operation's generated filter schema: `listVolumes` → `ListVolumesFilter`. */
export const filterSchemaName = (operationId) => `${operationId[0].toUpperCase()}${operationId.slice(1)}Filter`;

/**
 * Where the bundle keeps the generated filter schemas: `components.x-filter-schemas`, not
 * `components.schemas`. Their property names are the language's (`+and`, `+neq`), and generators
 * that turn every component schema into code write them unquoted and fail (typed-openapi);
 * nothing but the header's `contentSchema` points here, which those generators do not follow.
 */
export const FILTER_SCHEMAS = 'x-filter-schemas';
const SCHEMAS_POINTER = `#/components/${FILTER_SCHEMAS}/`;

/** JSON pointer of a generated filter schema in the bundle. @param {string} name @returns {string} */
export const filterSchemaPointer = (name) => `${SCHEMAS_POINTER}${name}`;

/** Whether a (resolved) parameter is the X-Filter header. @param {any} parameter @returns {boolean} */
export const isFilterParameter = (parameter) => Boolean(parameter) && parameter.in === 'header' && parameter.name === FILTER_HEADER;

/**
 * The generated schema an X-Filter parameter of the bundle describes its JSON with (its
 * `schema.contentSchema`): `{ name, pointer }`, or null for another parameter or a header whose
 * JSON has no generated schema.
 * @param {any} parameter a resolved parameter @returns {{ name: string, pointer: string } | null}
 */
export function filterSchemaOf(parameter) {
  const ref = isFilterParameter(parameter) ? parameter.schema?.contentSchema?.$ref : undefined;
  if (typeof ref !== 'string' || !ref.startsWith(SCHEMAS_POINTER)) return null;
  return { name: ref.slice(SCHEMAS_POINTER.length), pointer: ref };
}

/** JSON Schemas of an operation's filter: `{[name]: top level, [name + 'Clause']: inside +and/+or}`. */
export function filterSchemas(spec) {
  const name = filterSchemaName(spec.operationId);
  const clauseRef = { $ref: filterSchemaPointer(`${name}Clause`) };
  const nested = { type: 'array', minItems: 1, maxItems: FILTER_LIMITS.items, items: clauseRef };
  const fields = Object.fromEntries(Object.entries(spec.fields).map(([field, kind]) => [field, valueSchema(kind)]));
  const logic = {
    '+and': { ...nested, description: 'Every one of these filters must hold.' },
    '+or': { ...nested, description: 'At least one of these filters must hold.' },
  };
  const clause = {
    title: `X-Filter clause of ${spec.operationId}`,
    type: 'object',
    description: `A filter inside \`+and\` or \`+or\` of ${spec.operationId}: the same fields and operators, without ordering.`,
    properties: { ...fields, ...logic },
    additionalProperties: false,
  };
  const top = {
    title: `X-Filter of ${spec.operationId}`,
    type: 'object',
    description: `The \`X-Filter\` of ${spec.operationId}. Filterable fields: ${Object.keys(spec.fields).map((f) => `\`${f}\``).join(', ')}; ordering by ${spec.orderable.map((f) => `\`${f}\``).join(', ')}. See "Filtering and sorting".`,
    properties: {
      ...fields,
      ...logic,
      '+order_by': { type: 'string', enum: spec.orderable, description: 'The field to order by; the id breaks ties.' },
      '+order': { type: 'string', enum: ['asc', 'desc'], default: 'asc', description: 'The direction of `+order_by`.' },
    },
    dependentRequired: { '+order': ['+order_by'] },
    additionalProperties: false,
  };
  return { [name]: top, [`${name}Clause`]: clause };
}

/**
 * The bundle step: every operation that takes the shared `X-Filter` header parameter gets its own
 * copy of it whose `contentSchema` names exactly its filterable fields (generated into
 * `components.x-filter-schemas.<OperationId>Filter`). The header itself stays `type: string`, as
 * generators expect of a header. Changes `document` in place and returns it.
 */
export function specializeFilterParameters(document) {
  const specs = filterSpecs(document);
  const generated = {};
  for (const item of Object.values(document.paths || {})) {
    const operation = item && item.get;
    if (!operation || !Array.isArray(operation.parameters)) continue;
    const index = operation.parameters.findIndex((p) => isFilterParameter(deref(document, p)[0]));
    const spec = specs.get(operation.operationId);
    if (index < 0 || !spec) continue;
    const [shared] = deref(document, operation.parameters[index]);
    Object.assign(generated, filterSchemas(spec));
    const schema = { $ref: filterSchemaPointer(filterSchemaName(spec.operationId)) };
    // Sources before issue 39 (the release history bundles old tags with this code) declared the
    // header with `content`: their copy keeps that form.
    const media = shared.content?.['application/json'];
    operation.parameters[index] = media
      ? { ...shared, content: { 'application/json': { ...media, schema } } }
      : { ...shared, schema: { ...shared.schema, contentSchema: schema } };
  }
  if (Object.keys(generated).length) document.components = { ...document.components, [FILTER_SCHEMAS]: generated };
  // The shared parameter is now copied into every operation that took it; drop what nothing uses.
  const refs = JSON.stringify(document.paths);
  for (const [kind, name] of [['parameters', 'XFilter'], ['schemas', 'Filter']]) {
    const box = document.components[kind];
    if (box && box[name] && !refs.includes(`"#/components/${kind}/${name}"`) && !JSON.stringify(document.components).includes(`"#/components/${kind}/${name}"`)) delete box[name];
  }
  return document;
}

/**
 * A copy of the bundle whose generated filter schemas are ordinary component schemas
 * (`components.schemas.ListVolumesFilter`), for a generator that quotes such property names and
 * should name the filter types (openapi-typescript, behind `@cloudapi/types`).
 * @template T @param {T} document @returns {T}
 */
export function withFilterSchemasAsComponents(document) {
  const copy = JSON.parse(JSON.stringify(document).replaceAll(`"${SCHEMAS_POINTER}`, '"#/components/schemas/'));
  const { [FILTER_SCHEMAS]: schemas, ...components } = copy.components ?? {};
  copy.components = { ...components, schemas: { ...components.schemas, ...schemas } };
  return copy;
}
