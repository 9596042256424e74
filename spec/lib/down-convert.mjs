// The bundle as OpenAPI 3.0.3, for the tools that read only 3.0 (code generators, gateways,
// collection importers). @apiture/openapi-down-convert does the documented conversions (type
// arrays to `nullable`, `const` to `enum`, `examples` to `example`, `contentMediaType` to
// `format: binary`, `$ref` with siblings to `allOf`); this module finishes the job for what it
// leaves (`oneOf` with a null branch, `type: 'null'`, the role names of the bearer scheme) and
// removes what 3.0 cannot say, counting each loss so the build can list them.
import { Converter } from '@apiture/openapi-down-convert';
import { FILTER_SCHEMAS } from './filters.mjs';
import { appendPointer, formatPointer, resolvePointer } from './json-pointer.mjs';
import { subschemas, walkSchema } from './schema-walk.mjs';

// The keywords of a 3.0 Schema Object; anything else (2020-12 keywords) is lost.
const SCHEMA_30 = new Set([
  'title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type',
  'allOf', 'oneOf', 'anyOf', 'not', 'items', 'properties', 'additionalProperties', 'description', 'format',
  'default', 'nullable', 'discriminator', 'readOnly', 'writeOnly', 'xml', 'externalDocs', 'example', 'deprecated', '$ref',
]);
// The keywords of a 3.0 Schema Object that hold subschemas, in the order the conversion visits them.
const SUBSCHEMAS_30 = ['allOf', 'oneOf', 'anyOf', 'not', 'items', 'additionalProperties', 'properties'];
// What each lost keyword meant, for the build output and spec/DECISIONS.md section 16.
export const LOSS_MEANING = {
  if: 'conditional rules (if/then/else): the rules hold in the 3.1 bundle and in the operation descriptions only',
  then: 'conditional rules (if/then/else)',
  else: 'conditional rules (if/then/else)',
  dependentSchemas: 'rules that apply when a field is given',
  dependentRequired: 'fields required together',
  propertyNames: 'allowed property names (device slots); forbidden names keep a 3.0 form',
  contains: 'array rules on some items (at most one public interface)',
  minContains: 'array rules on some items',
  maxContains: 'array rules on some items',
  prefixItems: 'the positions of [timestamp, value] points (items stay typed number)',
  unevaluatedProperties: 'closed bodies that combine schemas with allOf',
  patternProperties: 'property names by pattern',
  contentMediaType: 'the media type of a file part',
  contentSchema: 'the structure of the X-Filter header\'s JSON (its per-list schemas in components.x-filter-schemas go too): the header is a string, its language told in its description',
  'security roles': 'the scopes listed under personalAccessToken (3.0 allows scopes only for OAuth; the oauth requirement keeps them)',
  'null type': 'a schema that allows only null (a field that is absent or null) becomes `enum: [null]` with `nullable` and the type the property has elsewhere',
  'info.summary': 'the one-line summary of the API (its description stays)',
  $defs: 'local definitions',
  'unused schema': 'a schema that only dropped rules used (the record target names of if/then) is left out',
};

function isNullBranch(schema) {
  return schema && typeof schema === 'object' && schema.type === 'null' && Object.keys(schema).every((k) => k === 'type' || k === 'description');
}

// `propertyNames: {not: {enum: [names]}}` (a guarded secret, a branch told apart from another by
// the fields it never has) has a 3.0 form: `not: {anyOf: [{required: [name]}, ...]}` (no anyOf for
// one name).
function forbiddenNames(schema) {
  const names = schema.propertyNames;
  const ok = names && Object.keys(names).length === 1 && names.not && Object.keys(names.not).length === 1 && Array.isArray(names.not.enum);
  return ok ? names.not.enum : undefined;
}

function forbidNames(schema, names) {
  // Each branch declares the name it requires, as 3.0 linters want of every `required` entry.
  const branches = names.map((name) => ({ required: [name], properties: { [name]: {} } }));
  const rule = branches.length === 1 ? branches[0] : { anyOf: branches };
  if (schema.not) schema.allOf = [...(schema.allOf || []), { not: rule }];
  else schema.not = rule;
  delete schema.propertyNames;
}

// The type most schemas of the document give each property name, for a schema that only allows
// null (`compute_id` of a clone to a new instance): 3.0 needs a type beside `nullable`.
function typesByPropertyName(document) {
  const counts = new Map();
  forEachSchema(document, (root) => walkSchema(root, (schema) => {
    for (const [name, property] of Object.entries(schema.properties || {})) {
      const type = Array.isArray(property?.type) ? property.type.find((t) => t !== 'null') : property?.type;
      if (typeof type === 'string' && type !== 'null') {
        const byType = counts.get(name) ?? new Map();
        byType.set(type, (byType.get(type) ?? 0) + 1);
        counts.set(name, byType);
      }
    }
  }));
  return new Map([...counts].map(([name, byType]) => [name, [...byType].sort((a, b) => b[1] - a[1])[0][0]]));
}

// A schema that only the dropped rules named (a record target inside if/then) is left unused:
// it goes, so that 3.0 linters do not report it.
function dropUnusedSchemas(document, lose) {
  const schemas = document.components?.schemas || {};
  for (let removed = true; removed;) {
    removed = false;
    const text = JSON.stringify(document);
    for (const name of Object.keys(schemas)) {
      if (text.includes(`"#/components/schemas/${name}"`)) continue;
      delete schemas[name];
      lose('unused schema', formatPointer(['components', 'schemas', name], { fragment: true }));
      removed = true;
    }
  }
}

// Keywords the converter rewrites into a 3.0 form rather than dropping.
const CONVERTED = new Set(['const', 'examples', 'contentEncoding', 'contentMediaType', '$comment']);

// Counts, in the 3.1 bundle, every schema keyword 3.0 has no form for (the converter drops some
// of them silently, so they are counted before it runs).
function countLosses(bundle, lose) {
  forEachSchema(bundle, (root, at) => walkSchema(root, (schema, step) => {
    const where = appendPointer(at, ...step.path);
    for (const key of Object.keys(schema)) {
      if (key === 'propertyNames' && forbiddenNames(schema)) continue;
      if (!SCHEMA_30.has(key) && !CONVERTED.has(key) && !key.startsWith('x-')) lose(key, where);
    }
  }));
}

function forEachSchema(document, visit) {
  const walk = (node, where) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) { node.forEach((n, i) => walk(n, appendPointer(where, i))); return; }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') continue;
      if (key === 'schema') visit(value, appendPointer(where, 'schema'));
      else if (key === 'schemas' && where === '#/components') for (const [name, s] of Object.entries(value)) visit(s, formatPointer(['components', 'schemas', name], { fragment: true }));
      else walk(value, appendPointer(where, key));
    }
  };
  walk(document, '#');
}

/** Returns { document (3.0.3), losses: { keyword: { count, example } } }. */
export function downConvert(bundle) {
  const losses = {};
  const lose = (keyword, where) => {
    losses[keyword] ??= { count: 0, example: where };
    losses[keyword].count += 1;
  };
  countLosses(bundle, lose);
  const source = structuredClone(bundle);
  // Before the converter, which drops `propertyNames`.
  forEachSchema(source, (root) => walkSchema(root, (schema) => {
    const forbidden = forbiddenNames(schema);
    if (forbidden) forbidNames(schema, forbidden);
  }));
  const converted = new Converter(source, { allOfTransform: true }).convert();
  const typeOfName = typesByPropertyName(bundle);

  const visit = (schema, where, name) => {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
    // oneOf/anyOf with a null branch: the other branch, made nullable.
    for (const key of ['oneOf', 'anyOf']) {
      if (!Array.isArray(schema[key]) || !schema[key].some(isNullBranch)) continue;
      const rest = schema[key].filter((b) => !isNullBranch(b));
      delete schema[key];
      schema.nullable = true;
      if (rest.length === 1 && rest[0].$ref) schema.allOf = [rest[0]];
      else if (rest.length === 1) {
        for (const [k, v] of Object.entries(rest[0])) if (!(k in schema) || k === 'type') schema[k] = v;
      } else schema[key] = rest;
    }
    // 3.0 reads `nullable` only beside a `type`, and a `$ref` under `allOf` refuses null whatever
    // its siblings say: a nullable reference becomes "the named schema, or null" (`anyOf` with a
    // branch that allows only null), so the name stays for code generators.
    if (schema.nullable === true && !schema.type && schema.allOf?.length === 1 && schema.allOf[0].$ref) {
      const type = resolvePointer(converted, schema.allOf[0].$ref)?.type ?? 'object';
      schema.anyOf = [schema.allOf[0], { type, nullable: true, enum: [null], ...(type === 'array' ? { items: {} } : {}) }];
      delete schema.allOf;
      delete schema.nullable;
    }
    if (schema.type === 'null') {
      schema.type = typeOfName.get(name) ?? 'string';
      schema.nullable = true;
      schema.enum = [null];
      lose('null type', where);
    }
    // A nullable enum lists null, or 3.0 validators refuse the null that `nullable` allows.
    if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
    if (typeof schema.exclusiveMinimum === 'number') { schema.minimum = schema.exclusiveMinimum; schema.exclusiveMinimum = true; }
    if (typeof schema.exclusiveMaximum === 'number') { schema.maximum = schema.exclusiveMaximum; schema.exclusiveMaximum = true; }
    for (const key of Object.keys(schema)) {
      if (!SCHEMA_30.has(key) && !key.startsWith('x-')) delete schema[key];
    }
    // What is left is 3.0, whose subschemas sit under these keywords only.
    for (const { keyword, key, schema: sub } of subschemas(schema, SUBSCHEMAS_30)) {
      visit(sub, key === undefined ? appendPointer(where, keyword) : appendPointer(where, keyword, key), keyword === 'properties' ? key : undefined);
    }
  };

  forEachSchema(converted, visit);
  dropUnusedSchemas(converted, lose);
  // Only the X-Filter's contentSchema, gone above, pointed at the generated filter schemas.
  delete converted.components[FILTER_SCHEMAS];

  // 3.0: only OAuth (and OpenID Connect) requirements list scopes.
  const oauthSchemes = new Set(Object.entries(converted.components.securitySchemes || {}).filter(([, s]) => s.type === 'oauth2' || s.type === 'openIdConnect').map(([n]) => n));
  for (const [route, item] of Object.entries(converted.paths || {})) {
    for (const [method, operation] of Object.entries(item)) {
      for (const requirement of (operation && operation.security) || []) {
        for (const [scheme, scopes] of Object.entries(requirement)) {
          if (!oauthSchemes.has(scheme) && scopes.length) { requirement[scheme] = []; lose('security roles', formatPointer(['paths', route, method, 'security'], { fragment: true })); }
        }
      }
    }
  }
  converted.openapi = '3.0.3';
  delete converted.jsonSchemaDialect;
  if (converted.info.summary) { lose('info.summary', '#/info/summary'); delete converted.info.summary; }
  return { document: converted, losses };
}

/** One line per kind of loss, for the build output. */
export function describeLosses(losses) {
  return Object.entries(losses).sort(([a], [b]) => a.localeCompare(b))
    .map(([keyword, { count, example }]) => `${keyword} ×${count} (e.g. ${example}): ${LOSS_MEANING[keyword] || 'no 3.0 equivalent'}`);
}
