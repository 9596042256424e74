// Validates values against the schemas of a bundled OpenAPI 3.1 document, with JSON Schema
// 2020-12 and OpenAPI's meaning of readOnly and writeOnly, which plain JSON Schema lacks:
//
// - in the *request* view, a readOnly property must not be sent (and is not required);
// - in the *response* view, a writeOnly property must not be returned (and is not required).
//
// Each view is a transformed copy of the whole document, so `$ref`s keep working and any schema
// can be addressed by its JSON pointer in the bundle, e.g.
// `#/paths/~1volumes/post/requestBody/content/application~1json/schema`.
// Used by the spec's own tests (examples) and by @cloudapi/contract (real responses).
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { appendPointer, formatPointer, resolvePointer } from './json-pointer.mjs';
import { appliedSubschemas, mapSubschemas } from './schema-walk.mjs';

/**
 * One validation failure: where in the value (`/data/0/label`), where in the schema, and a message.
 * @typedef {{ path: string, schemaPath: string, keyword: string, params: Record<string, any>, message: string }} SchemaError
 */
/**
 * The bundle's schemas as the request and the response side see them.
 * @typedef {object} SchemaViews
 * @property {any} document the bundle
 * @property {(view: 'request' | 'response', pointer: string, value: unknown) => { valid: boolean, errors: SchemaError[] }} validate
 *   validates `value` against the schema at `pointer` (a JSON pointer into the bundle)
 * @property {(view: 'request' | 'response', pointer: string, value: unknown) => string[]} undeclared
 *   the fields of `value` that the schema at `pointer` does not declare, as JSON pointers into the value
 * @property {(pointer: string) => any} schemaAt the schema at `pointer`, its `$ref`s followed at the top level
 * @property {(node: unknown) => any} resolve a node with its `$ref`s followed
 */

// The JSON-pointer helpers under the names the contract kit and the server import from here;
// @cloudapi/spec/json-pointer is where they are written.
export { resolvePointer as pointerGet, escapeToken as escapePointerPart } from './json-pointer.mjs';

/** The JSON pointer (`#/a/b~1c`) of these reference tokens. @param {...(string | number)} parts @returns {string} */
export const pointerOf = (...parts) => formatPointer(parts, { fragment: true });

function resolveRef(document, schema, depth = 0) {
  if (schema && typeof schema === 'object' && typeof schema.$ref === 'string' && schema.$ref.startsWith('#') && depth < 32) {
    return resolveRef(document, resolvePointer(document, schema.$ref), depth + 1);
  }
  return schema;
}

function hasFlag(document, schema, flag) {
  if (!schema || typeof schema !== 'object') return false;
  if (schema[flag] === true) return true;
  const target = typeof schema.$ref === 'string' ? resolveRef(document, schema) : null;
  return target && target !== schema ? hasFlag(document, target, flag) : false;
}

// Copies a schema, turning the properties that carry `flag` (readOnly or writeOnly) into `false`,
// or leaving them out when `remove` is set (for serializers, which read `false` as "anything").
function transformSchema(document, schema, flag, remove = false) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out = mapSubschemas(schema, (sub) => transformSchema(document, sub, flag, remove));
  if (out.properties) {
    const hidden = Object.keys(schema.properties).filter((name) => hasFlag(document, schema.properties[name], flag));
    for (const name of hidden) {
      if (remove) delete out.properties[name];
      else out.properties[name] = false;
    }
    if (Array.isArray(out.required)) out.required = out.required.filter((name) => !hidden.includes(name));
  }
  return out;
}

// Copies the whole document, transforming every schema it holds wherever it is.
function transformDocument(document, flag, remove = false) {
  const visit = (node, key) => {
    if (Array.isArray(node)) return node.map((item) => visit(item, null));
    if (!node || typeof node !== 'object') return node;
    if (key === 'schema') return transformSchema(document, node, flag, remove);
    const out = {};
    for (const [k, v] of Object.entries(node)) {
      if (key === 'schemas') out[k] = transformSchema(document, v, flag, remove); // components.schemas
      else if (k === 'examples' || k === 'example') out[k] = v; // data, not schemas
      else out[k] = visit(v, k);
    }
    return out;
  };
  return visit(document, null);
}

/**
 * A copy of the whole document as one side sees it: in the `request` view readOnly properties
 * are `false` (must not be sent), in the `response` view writeOnly ones are. With `remove`, those
 * properties are left out instead, for serializers that emit only declared fields (the reference
 * server's responses).
 * @param {unknown} document @param {'request' | 'response'} view @param {{ remove?: boolean }} [options]
 * @returns {any}
 */
export function viewDocument(document, view, { remove = false } = {}) {
  if (view !== 'request' && view !== 'response') throw new Error(`Unknown view "${view}": use "request" or "response".`);
  return transformDocument(document, view === 'request' ? 'readOnly' : 'writeOnly', remove);
}

const INT32 = 2 ** 31;
// strictSchema is off because Ajv compiles the root of every document a $ref points into, and an
// OpenAPI document's root (openapi, info, paths...) is not a schema. OpenAPI annotations such as
// `example`, `discriminator` and `x-*` are then ignored too. Misspelt schema keywords are still
// caught, by Redocly's struct rule in `npm run lint`.
// `options` adds to or overrides Ajv's (the reference server coerces query strings, for one).
/** @param {import('ajv').Options} [options] @returns {import('ajv/dist/2020.js').Ajv2020} */
export function createAjv(options = {}) {
  const ajv = new Ajv2020({ allErrors: true, strictSchema: false, strictTypes: false, allowUnionTypes: true, ...options });
  addFormats(ajv);
  // OpenAPI's own formats.
  ajv.addFormat('int32', { type: 'number', validate: (n) => Number.isInteger(n) && n >= -INT32 && n < INT32 });
  ajv.addFormat('int64', { type: 'number', validate: (n) => Number.isInteger(n) });
  ajv.addFormat('password', true);
  ajv.addFormat('binary', true);
  return ajv;
}

// What the subschemas applying to `value` declare: property names (with the pointers of their
// schemas), property name patterns, schemas for other properties, and array item schemas.
function applicableDeclarations(document, matches, pointer, value, into, depth) {
  const schema = resolvePointer(document, pointer);
  if (depth > 64 || !schema || typeof schema !== 'object') {
    if (schema === true || (schema && typeof schema === 'object' && depth > 64)) into.open = true;
    return into;
  }
  const sub = (...parts) => appendPointer(pointer, ...parts);
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#')) applicableDeclarations(document, matches, schema.$ref, value, into, depth + 1);
  for (const [name] of Object.entries(schema.properties || {})) (into.properties[name] ??= []).push(sub('properties', name));
  for (const pattern of Object.keys(schema.patternProperties || {})) into.patterns.push([new RegExp(pattern, 'u'), sub('patternProperties', pattern)]);
  for (const key of ['additionalProperties', 'unevaluatedProperties']) {
    if (schema[key] === true) into.open = true;
    else if (schema[key] && typeof schema[key] === 'object') into.additional.push(sub(key));
  }
  for (const key of ['items', 'unevaluatedItems']) if (schema[key] !== undefined && schema[key] !== false) into.items.push(sub(key));
  (schema.prefixItems || []).forEach((_, i) => { into.prefixItems[i] ??= []; into.prefixItems[i].push(sub('prefixItems', i)); });
  const at = (/** @type {import('./schema-walk.mjs').Subschema} */ { keyword, key }) => (key === undefined ? sub(keyword) : sub(keyword, key));
  for (const applied of appliedSubschemas(schema, value, (branch) => matches(at(branch), value))) {
    applicableDeclarations(document, matches, at(applied), value, into, depth + 1);
  }
  return into;
}

function collectUndeclared(document, matches, pointer, value, path, found, depth) {
  if (!value || typeof value !== 'object' || depth > 64) return;
  const d = applicableDeclarations(document, matches, pointer, value, { properties: {}, patterns: [], additional: [], items: [], prefixItems: [], open: false }, 0);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const at of [...(d.prefixItems[i] || []), ...(i >= d.prefixItems.length ? d.items : [])]) collectUndeclared(document, matches, at, item, appendPointer(path, i), found, depth + 1);
    });
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    const schemas = [...(d.properties[key] || []), ...d.patterns.filter(([re]) => re.test(key)).map(([, at]) => at)];
    if (!schemas.length && !d.open && !d.additional.length) { found.add(appendPointer(path, key)); continue; }
    for (const at of schemas.length ? schemas : d.additional) collectUndeclared(document, matches, at, child, appendPointer(path, key), found, depth + 1);
  }
}

/** @param {any} document the bundle @returns {SchemaViews} */
export function createSchemaViews(document) {
  const ajv = createAjv();
  const ids = { request: 'openapi-view:request', response: 'openapi-view:response' };
  ajv.addSchema(transformDocument(document, 'readOnly'), ids.request);
  ajv.addSchema(transformDocument(document, 'writeOnly'), ids.response);
  const compiled = new Map();

  function validatorFor(view, pointer) {
    if (!ids[view]) throw new Error(`Unknown view "${view}": use "request" or "response".`);
    const key = `${view} ${pointer}`;
    if (!compiled.has(key)) compiled.set(key, ajv.compile({ $ref: `${ids[view]}${pointer}` }));
    return compiled.get(key);
  }

  return {
    document,
    /** Validates `value` against the schema at `pointer` (a JSON pointer into the bundle). */
    validate(view, pointer, value) {
      const check = validatorFor(view, pointer);
      const valid = check(value);
      return {
        valid,
        errors: valid ? [] : check.errors.map((e) => ({
          path: e.instancePath || '/',
          schemaPath: e.schemaPath.replace(/^[^#]*#/, '#'), // through $refs as written, e.g. …/schema/then/not
          keyword: e.keyword,
          params: e.params,
          message: `${e.instancePath || '(root)'} ${e.message}${e.keyword === 'additionalProperties' ? ` "${e.params.additionalProperty}"` : ''}${e.keyword === 'false schema' ? ' (a read-only or write-only field here)' : ''}`,
        })),
      };
    },
    /**
     * Fields of `value` that the schema at `pointer` does not declare, as JSON pointers into the
     * value (`/data/0/extra`). Open schemas accept them; the contract kit reports them. A field is
     * declared by `properties`, `patternProperties` or a schema-valued `additionalProperties` or
     * `unevaluatedProperties` of any subschema that applies to the value: `$ref`, `allOf`, the
     * `anyOf`/`oneOf` branches the value matches (all of them when it matches none), `then` or
     * `else` as `if` decides, and `dependentSchemas` of the fields present.
     */
    undeclared(view, pointer, value) {
      const found = new Set();
      collectUndeclared(document, (at, v) => validatorFor(view, at)(v), pointer, value, '', found, 0);
      return [...found];
    },
    /** The schema at `pointer`, with its $refs followed at the top level. */
    schemaAt(pointer) {
      return resolveRef(document, resolvePointer(document, pointer));
    },
    resolve(node) {
      return resolveRef(document, node);
    },
  };
}
