// The bundle as OpenAPI 3.0.3, for the tools that read only 3.0 (code generators, gateways,
// collection importers). @apiture/openapi-down-convert does the documented conversions (type
// arrays to `nullable`, `const` to `enum`, `examples` to `example`, `contentMediaType` to
// `format: binary`, `$ref` with siblings to `allOf`); this module finishes the job for what it
// leaves (`oneOf` with a null branch, `type: 'null'`, the role names of the bearer scheme) and
// removes what 3.0 cannot say, counting each loss so the build can list them.
import { Converter } from '@apiture/openapi-down-convert';

// The keywords of a 3.0 Schema Object; anything else (2020-12 keywords) is lost.
const SCHEMA_30 = new Set([
  'title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type',
  'allOf', 'oneOf', 'anyOf', 'not', 'items', 'properties', 'additionalProperties', 'description', 'format',
  'default', 'nullable', 'discriminator', 'readOnly', 'writeOnly', 'xml', 'externalDocs', 'example', 'deprecated', '$ref',
]);
// What each lost keyword meant, for the build output and spec/DECISIONS.md section 16.
export const LOSS_MEANING = {
  if: 'conditional rules (if/then/else): the rules hold in the 3.1 bundle and in the operation descriptions only',
  then: 'conditional rules (if/then/else)',
  else: 'conditional rules (if/then/else)',
  dependentSchemas: 'rules that apply when a field is given',
  dependentRequired: 'fields required together',
  propertyNames: 'allowed or forbidden property names (device slots, guarded secrets)',
  contains: 'array rules on some items (at most one public interface)',
  minContains: 'array rules on some items',
  maxContains: 'array rules on some items',
  prefixItems: 'the positions of [timestamp, value] points (items stay typed number)',
  unevaluatedProperties: 'closed bodies that combine schemas with allOf',
  patternProperties: 'property names by pattern',
  contentMediaType: 'the media type of a file part',
  'security roles': 'the scopes listed under personalAccessToken (3.0 allows scopes only for OAuth; the oauth requirement keeps them)',
  'null type': 'a schema that allows only null (a field that is absent or null) becomes `enum: [null]` with `nullable`',
  'info.summary': 'the one-line summary of the API (its description stays)',
  $defs: 'local definitions',
};

function isNullBranch(schema) {
  return schema && typeof schema === 'object' && schema.type === 'null' && Object.keys(schema).every((k) => k === 'type' || k === 'description');
}

// Keywords the converter rewrites into a 3.0 form rather than dropping.
const CONVERTED = new Set(['const', 'examples', 'contentEncoding', 'contentMediaType', '$comment']);
const SUBSCHEMA_KEYS = ['allOf', 'oneOf', 'anyOf', 'prefixItems'];
const SUBSCHEMA_ONE = ['not', 'items', 'additionalProperties', 'unevaluatedProperties', 'if', 'then', 'else', 'contains', 'propertyNames'];

// Counts, in the 3.1 bundle, every schema keyword 3.0 has no form for (the converter drops some
// of them silently, so they are counted before it runs).
function countLosses(bundle, lose) {
  const visit = (schema, where) => {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
    for (const key of Object.keys(schema)) {
      if (!SCHEMA_30.has(key) && !CONVERTED.has(key) && !key.startsWith('x-')) lose(key, where);
    }
    for (const key of SUBSCHEMA_KEYS) (schema[key] || []).forEach((s, i) => visit(s, `${where}/${key}/${i}`));
    for (const key of SUBSCHEMA_ONE) visit(schema[key], `${where}/${key}`);
    for (const key of ['properties', 'patternProperties', 'dependentSchemas', '$defs']) for (const [name, s] of Object.entries(schema[key] || {})) visit(s, `${where}/${key}/${name}`);
  };
  forEachSchema(bundle, visit);
}

function forEachSchema(document, visit) {
  const walk = (node, where) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) { node.forEach((n, i) => walk(n, `${where}/${i}`)); return; }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') continue;
      if (key === 'schema') visit(value, `${where}/schema`);
      else if (key === 'schemas' && where === '#/components') for (const [name, s] of Object.entries(value)) visit(s, `#/components/schemas/${name}`);
      else walk(value, `${where}/${key}`);
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
  const converted = new Converter(structuredClone(bundle), { allOfTransform: true }).convert();

  const visit = (schema, where) => {
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
    if (schema.type === 'null') {
      delete schema.type;
      schema.nullable = true;
      schema.enum = [null];
      lose('null type', where);
    }
    if (typeof schema.exclusiveMinimum === 'number') { schema.minimum = schema.exclusiveMinimum; schema.exclusiveMinimum = true; }
    if (typeof schema.exclusiveMaximum === 'number') { schema.maximum = schema.exclusiveMaximum; schema.exclusiveMaximum = true; }
    for (const key of Object.keys(schema)) {
      if (!SCHEMA_30.has(key) && !key.startsWith('x-')) delete schema[key];
    }
    for (const key of ['allOf', 'oneOf', 'anyOf']) (schema[key] || []).forEach((s, i) => visit(s, `${where}/${key}/${i}`));
    for (const key of ['not', 'items', 'additionalProperties']) visit(schema[key], `${where}/${key}`);
    for (const [name, s] of Object.entries(schema.properties || {})) visit(s, `${where}/properties/${name}`);
  };

  forEachSchema(converted, visit);

  // 3.0: only OAuth (and OpenID Connect) requirements list scopes.
  const oauthSchemes = new Set(Object.entries(converted.components.securitySchemes || {}).filter(([, s]) => s.type === 'oauth2' || s.type === 'openIdConnect').map(([n]) => n));
  for (const [route, item] of Object.entries(converted.paths || {})) {
    for (const [method, operation] of Object.entries(item)) {
      for (const requirement of (operation && operation.security) || []) {
        for (const [scheme, scopes] of Object.entries(requirement)) {
          if (!oauthSchemes.has(scheme) && scopes.length) { requirement[scheme] = []; lose('security roles', `#/paths/${route}/${method}/security`); }
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
