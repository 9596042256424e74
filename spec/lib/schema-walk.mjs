// The one schema walker: every JSON Schema 2020-12 keyword that holds subschemas, by shape, and
// the walks built on that table. Whoever visits, copies or searches the schemas of the bundle
// (the request and response views, the docs' filterable marks, the contract kit's field lists,
// the style guide's rules, the breaking-change engine, the 3.0 edition, the mock's generator)
// goes through here, so a keyword the table knows is known everywhere.
import { escapeToken } from './json-pointer.mjs';

/**
 * A schema as the bundle holds it: an object, or a boolean schema (`true`, `false`).
 * @typedef {Record<string, any> | boolean} Schema
 */
/**
 * How a keyword holds its subschemas: `map` (name → schema), `list` (array of schemas) or
 * `single` (one schema).
 * @typedef {'map' | 'list' | 'single'} KeywordShape
 */
/**
 * One subschema of a schema, where it sits: `keyword`, and `key` (a property name, a pattern, a
 * `$defs` name or an array index) unless the keyword holds a single schema; `pointer`, its JSON
 * pointer, when the schema's own was given.
 * @typedef {{ keyword: string, key?: string | number, schema: Schema, pointer?: string }} Subschema
 */
/**
 * Where the walk stands: the path of keywords and keys from the root (`['properties', 'tags',
 * 'items']`) and the keyword that led here (null at the root).
 * @typedef {{ path: Array<string | number>, keyword: string | null, depth: number }} WalkStep
 */

/**
 * Every 2020-12 keyword that holds subschemas (applicator, unevaluated, content and core
 * vocabularies), with its shape.
 * @type {Readonly<Record<string, KeywordShape>>}
 */
export const SUBSCHEMA_KEYWORDS = Object.freeze({
  // objects
  properties: 'map',
  patternProperties: 'map',
  additionalProperties: 'single',
  propertyNames: 'single',
  dependentSchemas: 'map',
  unevaluatedProperties: 'single',
  // arrays
  prefixItems: 'list',
  items: 'single',
  contains: 'single',
  unevaluatedItems: 'single',
  // in-place
  allOf: 'list',
  anyOf: 'list',
  oneOf: 'list',
  not: 'single',
  if: 'single',
  then: 'single',
  else: 'single',
  // content and definitions
  contentSchema: 'single',
  $defs: 'map',
});

/**
 * The keywords whose subschemas describe what an instance may carry (its fields and items):
 * all but `not` (what it must not be), `if` (a condition), `propertyNames` (the names, not the
 * values) and `$defs`/`contentSchema` (not applied to the instance itself).
 * @type {ReadonlyArray<string>}
 */
export const CARRYING_KEYWORDS = Object.freeze(Object.keys(SUBSCHEMA_KEYWORDS)
  .filter((keyword) => !['not', 'if', 'propertyNames', '$defs', 'contentSchema'].includes(keyword)));

/** @param {unknown} value @returns {value is Record<string, any>} */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** @param {unknown} value @returns {value is Schema} */
const isSchema = (value) => typeof value === 'boolean' || isObject(value);

/**
 * The direct subschemas of a schema, in keyword order (only the `keywords` given, all by
 * default). Booleans and non-schemas have none. Given the schema's JSON pointer (`at`), each
 * subschema comes with its own (`#/…/allOf/0`, `#/…/properties/a~1b`), for a validator that
 * addresses schemas by pointer.
 * @param {unknown} schema
 * @param {Iterable<string>} [keywords]
 * @param {string} [at]
 * @returns {Generator<Subschema>}
 */
export function* subschemas(schema, keywords = Object.keys(SUBSCHEMA_KEYWORDS), at) {
  if (!isObject(schema)) return;
  /** @param {string} keyword @param {string | number} [key] */
  const where = (keyword, key) => (at === undefined ? {} : { pointer: `${at}/${escapeToken(keyword)}${key === undefined ? '' : `/${escapeToken(key)}`}` });
  for (const keyword of keywords) {
    const shape = SUBSCHEMA_KEYWORDS[keyword];
    const value = schema[keyword];
    if (value === undefined || !shape) continue;
    if (shape === 'single') {
      if (isSchema(value)) yield { keyword, schema: value, ...where(keyword) };
    } else if (shape === 'list') {
      if (Array.isArray(value)) for (const [key, sub] of value.entries()) if (isSchema(sub)) yield { keyword, key, schema: sub, ...where(keyword, key) };
    } else if (isObject(value)) {
      for (const [key, sub] of Object.entries(value)) if (isSchema(sub)) yield { keyword, key, schema: sub, ...where(keyword, key) };
    }
  }
}

/**
 * @typedef {object} WalkOptions
 * @property {(node: any) => any} [resolve] follows a `$ref` (the walk then enters its target;
 *   without it `$ref`s are not followed)
 * @property {Iterable<string>} [keywords] the keywords to walk into (all by default)
 * @property {number} [maxDepth] how deep to go (64 by default)
 * @property {(schema: Record<string, any>, step: WalkStep & { raw: unknown }) => void} [leave] called
 *   after what lies below a schema was walked (so a part's parts come before the part)
 */

/**
 * Visits `root` and every schema below it, depth first, each object once (so cycles through
 * `$ref` end). `visit` gets the schema (resolved when `resolve` is given), the schema as written
 * and where it stands; returning false leaves out what lies below it.
 * @param {unknown} root
 * @param {(schema: Record<string, any>, step: WalkStep & { raw: unknown }) => boolean | void} visit
 * @param {WalkOptions} [options]
 */
export function walkSchema(root, visit, { resolve = (node) => node, keywords, maxDepth = 64, leave } = {}) {
  const list = [...(keywords ?? Object.keys(SUBSCHEMA_KEYWORDS))];
  const seen = new Set();
  /** @param {unknown} raw @param {Array<string | number>} path @param {string | null} keyword @param {number} depth */
  const walk = (raw, path, keyword, depth) => {
    const schema = resolve(raw);
    if (!isObject(schema) || seen.has(schema) || depth > maxDepth) return;
    seen.add(schema);
    const step = { path, keyword, depth, raw };
    if (visit(schema, step) === false) return;
    for (const sub of subschemas(schema, list)) {
      walk(sub.schema, sub.key === undefined ? [...path, sub.keyword] : [...path, sub.keyword, sub.key], sub.keyword, depth + 1);
    }
    leave?.(schema, step);
  };
  walk(root, [], null, 0);
}

/**
 * A schema and those of its subschemas, through `keywords` (by default the branches `allOf`,
 * `anyOf`, `oneOf`), that apply to the same value: resolved, each once, in walk order (the schema
 * first). What a schema says of a value is the sum of what its parts say.
 * @param {unknown} root
 * @param {WalkOptions} [options]
 * @returns {Array<Record<string, any>>}
 */
export function schemaParts(root, { resolve, keywords = ['allOf', 'anyOf', 'oneOf'], maxDepth } = {}) {
  /** @type {Array<Record<string, any>>} */
  const parts = [];
  walkSchema(root, (schema) => { parts.push(schema); }, { resolve, keywords, maxDepth });
  return parts;
}

/**
 * The properties a schema declares for its own object: its `properties` and those of its `allOf`
 * parts at any depth (each part once), name → schema as written. A name declared twice keeps the
 * declaration nearest the root, and the parts' names come first, in the parts' order.
 * @param {unknown} root
 * @param {WalkOptions} [options] `resolve` and `maxDepth`
 * @returns {Record<string, any>}
 */
export function ownProperties(root, { resolve, maxDepth } = {}) {
  /** @type {Record<string, any>} */
  const out = {};
  const gather = (/** @type {Record<string, any>} */ schema) => { if (isObject(schema.properties)) Object.assign(out, schema.properties); };
  walkSchema(root, () => {}, { resolve, keywords: ['allOf'], maxDepth, leave: gather });
  return out;
}

/**
 * The schemas a member of a value must meet (`key`: a property name, or an array index as a
 * number or digits), as the schema and its `allOf` parts declare them: `properties[key]`, and for
 * an index `prefixItems[key]`, or `items` past the `prefixItems`. A member declared only in a
 * conditional or alternative branch has none here.
 * @param {unknown} root
 * @param {string | number} key
 * @param {WalkOptions} [options] `resolve` and `maxDepth`
 * @returns {Schema[]}
 */
export function memberSchemas(root, key, { resolve, maxDepth } = {}) {
  const name = String(key);
  const index = /^(?:0|[1-9]\d*)$/.test(name) ? Number(name) : null;
  /** @type {Schema[]} */
  const found = [];
  for (const part of schemaParts(root, { resolve, keywords: ['allOf'], maxDepth })) {
    if (index !== null) {
      const tuple = Array.isArray(part.prefixItems) ? part.prefixItems : [];
      const item = index < tuple.length ? tuple[index] : part.items;
      if (isSchema(item)) found.push(item);
    }
    if (isObject(part.properties) && Object.hasOwn(part.properties, name) && isSchema(part.properties[name])) found.push(part.properties[name]);
  }
  return found;
}

/** The keywords whose subschemas apply to the value itself (rather than to its members). */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas'];

/**
 * The direct subschemas of `schema` that apply to `value` itself, as an evaluator takes them:
 * every `allOf` part; the `anyOf` and `oneOf` branches the value matches (all of them when it
 * matches none, so a failing value still finds its fields); `if`, and the `then` or `else` it
 * chooses; the `dependentSchemas` of the members the value has. `matches(subschema)` says whether
 * the value is valid against one of them.
 * @param {unknown} schema
 * @param {unknown} value
 * @param {(subschema: Subschema) => boolean} matches
 * @returns {Subschema[]}
 */
export function appliedSubschemas(schema, value, matches) {
  const found = [...subschemas(schema, IN_PLACE)];
  const of = (/** @type {string} */ keyword) => found.filter((sub) => sub.keyword === keyword);
  const applied = of('allOf');
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = of(keyword);
    const matching = branches.filter((branch) => matches(branch));
    applied.push(...(matching.length ? matching : branches));
  }
  const [condition] = of('if');
  if (condition) applied.push(condition, ...of(matches(condition) ? 'then' : 'else'));
  if (isObject(value)) applied.push(...of('dependentSchemas').filter((sub) => Object.hasOwn(value, String(sub.key))));
  return applied;
}

/**
 * A shallow copy of `schema` whose every subschema is replaced by `map(subschema, where)`; the
 * other keywords are kept as they are. Booleans and non-schemas come back unchanged.
 * @template T
 * @param {T} schema
 * @param {(subschema: Schema, where: { keyword: string, key?: string | number }) => unknown} map
 * @returns {T}
 */
export function mapSubschemas(schema, map) {
  if (!isObject(schema)) return schema;
  /** @type {Record<string, any>} */
  const out = { ...schema };
  for (const [keyword, shape] of Object.entries(SUBSCHEMA_KEYWORDS)) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (shape === 'single') {
      if (isSchema(value)) out[keyword] = map(value, { keyword });
    } else if (shape === 'list') {
      if (Array.isArray(value)) out[keyword] = value.map((sub, key) => (isSchema(sub) ? map(sub, { keyword, key }) : sub));
    } else if (isObject(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([key, sub]) => [key, isSchema(sub) ? map(sub, { keyword, key }) : sub]));
    }
  }
  return /** @type {T} */ (out);
}

/**
 * Each property a schema declares wherever it sits (in the schema and in every subschema of the
 * keywords that describe what an instance carries, `CARRYING_KEYWORDS`), each schema once:
 * `visit` gets the property's name, its schema as written (a `$ref` or inline) and that schema
 * resolved; returning false leaves out what lies below that property.
 * @param {unknown} root
 * @param {(node: any) => any} resolve
 * @param {(name: string, raw: any, property: any) => boolean | void} visit
 * @param {number} [maxDepth]
 */
export function walkProperties(root, resolve, visit, maxDepth = 24) {
  const seen = new Set();
  /** @param {unknown} node @param {number} depth */
  const walk = (node, depth) => {
    const schema = resolve(node);
    if (!isObject(schema) || seen.has(schema) || depth > maxDepth) return;
    seen.add(schema);
    for (const sub of subschemas(schema, CARRYING_KEYWORDS)) {
      // A property's name is visited wherever it is declared, even when its schema was seen.
      if (sub.keyword === 'properties' && visit(String(sub.key), sub.schema, resolve(sub.schema)) === false) continue;
      walk(sub.schema, depth + 1);
    }
  };
  walk(root, 0);
}
