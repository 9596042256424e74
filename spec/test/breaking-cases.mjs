// The cases of the breaking-change catalogue (spec/README.md, "Breaking changes: oasdiff's checks
// and ours"): for each oasdiff check that applies, and each code of ours beyond them, a change to
// a copy of the bundle. `breaking-catalogue.test.mjs` compares the two copies and expects the
// README row's code at its level, pointing at `at` (a source file and the YAML path in it; the
// line is that of the deepest node of the path that exists, as for a finding about something
// the source does not have).
//
// A case is { id, paths, before?, after?, at }: `before` and `after` edit the bundle (copying only
// the path to what they change, so a case costs microseconds), `paths` are the path items both
// copies keep (the comparison is then as small as the case). An "added" check usually removes
// the thing from `before`, so that the finding points at a line the sources really have.

/** `a-{b,c}-d` → `a-b-d`, `a-c-d` (brace expansion, left to right). @param {string} pattern @returns {string[]} */
export function expand(pattern) {
  const match = /\{([^{}]*)\}/.exec(pattern);
  if (!match) return [pattern];
  return match[1].split(',').flatMap((part) => expand(pattern.slice(0, match.index) + part + pattern.slice(match.index + match[0].length)));
}

const partsOf = (pointer) => pointer.replace(/^#\/?/, '').split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * A copy of `doc` whose node at `pointer` is `fn(node)` (`undefined` removes it); only the objects
 * on the way are copied.
 * @param {any} doc @param {string} pointer @param {(node: any) => any} fn
 */
export function update(doc, pointer, fn) {
  const go = (node, parts) => {
    if (!parts.length) return fn(node);
    const [head, ...rest] = parts;
    const copy = Array.isArray(node) ? [...node] : { ...node };
    const value = go(node?.[head], rest);
    if (value === undefined) {
      if (Array.isArray(copy)) copy.splice(Number(head), 1);
      else delete copy[head];
    } else copy[head] = value;
    return copy;
  };
  return go(doc, partsOf(pointer));
}

/** Sets (or, for `undefined`, removes) fields of the object at `pointer`. */
const patch = (pointer, fields) => (doc) => update(doc, pointer, (node) => {
  const copy = { ...node };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  }
  return copy;
});
const remove = (pointer) => (doc) => update(doc, pointer, () => undefined);
const set = (pointer, value) => (doc) => update(doc, pointer, () => value);
const chain = (...edits) => (doc) => edits.reduce((d, edit) => edit(d), doc);

// ---------------------------------------------------------------------------------------------
// Where the cases change the bundle.

const VOLUME_CREATE = '#/components/schemas/VolumeCreateRequest';
const VOLUME = '#/components/schemas/Volume';
const PAGE_SIZE = '#/components/parameters/PageSize';
const LIST_VOLUMES = '#/paths/~1volumes/get';
const CREATE_VOLUME = '#/paths/~1volumes/post';
const GET_VOLUME = '#/paths/~1volumes~1{volumeId}/get';
const RATE_LIMIT = '#/components/headers/RateLimitLimit';
const OAUTH = '#/components/securitySchemes/oauth';
const FILES = {
  volumeCreate: 'components/schemas/volumes/VolumeCreateRequest.yaml',
  volume: 'components/schemas/volumes/Volume.yaml',
  pageSize: 'components/parameters/common/PageSize.yaml',
  volumes: 'paths/volumes/volumes.yaml',
  volumeItem: 'paths/volumes/volumes_{volumeId}.yaml',
  regions: 'paths/regions/regions.yaml',
  rateLimit: 'components/headers/RateLimitLimit.yaml',
  root: 'openapi.yaml',
};

// The schema of a request (POST /volumes) or a response (GET /volumes/{volumeId}), at its root
// (`body`) or at a field (`property`).
const SCHEMA_TARGETS = {
  request: {
    body: { pointer: VOLUME_CREATE, file: FILES.volumeCreate, yaml: [], paths: ['/volumes'] },
    property: { pointer: `${VOLUME_CREATE}/properties/label`, file: FILES.volumeCreate, yaml: ['properties', 'label'], paths: ['/volumes'] },
  },
  response: {
    body: { pointer: VOLUME, file: FILES.volume, yaml: [], paths: ['/volumes/{volumeId}'] },
    property: { pointer: `${VOLUME}/properties/label`, file: FILES.volume, yaml: ['properties', 'label'], paths: ['/volumes/{volumeId}'] },
  },
};

// An object-valued header parameter of GET /volumes, in both copies (the spec's own, X-Filter, has
// a schema the bundler generates).
const PROBE_HEADER = `${LIST_VOLUMES}/parameters/3`;
const withProbeHeader = (schema) => set(PROBE_HEADER, { name: 'X-Probe', in: 'header', required: false, schema: { type: 'object', ...schema } });
const PARAMETER_TARGETS = {
  parameter: { pointer: `${PAGE_SIZE}/schema`, file: FILES.pageSize, yaml: ['schema'], paths: ['/volumes'] },
  'parameter-property': { pointer: `${PROBE_HEADER}/schema/properties/a`, file: FILES.volumes, yaml: ['get', 'parameters'], paths: ['/volumes'], setUp: withProbeHeader({ properties: { a: { type: 'string' } } }) },
};

/**
 * A case that sets fields of a schema in each copy: `before` and `after` are field maps, `at` the
 * keyword the finding must point at (the schema itself when omitted).
 */
function schemaCase(id, target, before, after, at) {
  const edit = (fields) => chain(target.setUp ?? ((d) => d), patch(target.pointer, fields));
  return { id, paths: target.paths, before: edit(before), after: edit(after), at: [target.file, ...target.yaml, ...(at ? [at] : [])] };
}

// ---------------------------------------------------------------------------------------------
// Families of checks, each an explicit list of oasdiff ids and how to make each change.

/** Bounds: [schema keyword, the type it constrains, other fields both copies have]. */
const BOUNDS = {
  max: ['maximum', 'integer'], min: ['minimum', 'integer'],
  'exclusive-max': ['exclusiveMaximum', 'integer'], 'exclusive-min': ['exclusiveMinimum', 'integer'],
  'max-length': ['maxLength', 'string'], 'min-length': ['minLength', 'string'],
  'max-items': ['maxItems', 'array'], 'min-items': ['minItems', 'array'],
  'max-properties': ['maxProperties', 'object'], 'min-properties': ['minProperties', 'object'],
  'max-contains': ['maxContains', 'array', { contains: { type: 'string' } }], 'min-contains': ['minContains', 'array', { contains: { type: 'string' } }],
};
const BOUND_ACTIONS = { set: [undefined, 20], unset: [20, undefined], increased: [10, 20], decreased: [20, 10] };
const BOUND_IDS = [
  'request-{body,property}-{max,exclusive-max,max-length}-{set,increased,decreased}',
  'request-{body,property}-{min,exclusive-min}-{set,increased,decreased}',
  'request-{body,property}-min-length-{increased,decreased}',
  'request-{body,property}-{max-items,max-properties}-{set,increased,decreased}',
  'request-{body,property}-{min-items}-{set,increased}',
  'request-{body,property}-min-properties-increased',
  'request-{body,property}-{min,max}-contains-{increased,decreased}',
  'request-parameter-{max,exclusive-max,max-length,min,exclusive-min,min-items}-set',
  'request-parameter-{max,exclusive-max,max-length,max-items,min,exclusive-min,min-length,min-items}-{increased,decreased}',
  'response-{body,property}-{max,exclusive-max,max-length,max-items,max-properties}-increased',
  'response-{body,property}-{min,exclusive-min,min-length,min-items,min-properties}-decreased',
  'response-{body,property}-{max-length,min-items}-unset',
  'response-{body,property}-{min,max}-contains-{increased,decreased}',
].flatMap(expand);

function boundCase(id) {
  const [, side, scope, name, action] = /^(request|response)-(body|property|parameter)-(.+)-(set|unset|increased|decreased)$/.exec(id);
  const [keyword, type, extra = {}] = BOUNDS[name];
  const [from, to] = BOUND_ACTIONS[action];
  const target = scope === 'parameter' ? PARAMETER_TARGETS.parameter : SCHEMA_TARGETS[side][scope];
  return schemaCase(id, target, { type, ...extra, [keyword]: from }, { type, ...extra, [keyword]: to }, to === undefined ? undefined : keyword);
}

/** multipleOf and uniqueItems: [before, after] of the keyword, by action. */
const CONSTRAINT_VALUES = {
  'multiple-of': { keyword: 'multipleOf', type: 'integer', set: [undefined, 5], unset: [5, undefined], changed: [3, 5], generalized: [10, 5], specialized: [5, 10] },
  'unique-items': { keyword: 'uniqueItems', type: 'array', set: [undefined, true], unset: [true, undefined] },
};
const CONSTRAINT_IDS = [
  'request-{body,property}-multiple-of-{set,unset,changed,generalized}',
  'response-{body,property}-multiple-of-{unset,changed,specialized}',
  'request-{body,property}-unique-items-{set,unset}',
  'response-{body,property}-unique-items-unset',
].flatMap(expand);

function constraintCase(id) {
  const [, side, scope, name, action] = /^(request|response)-(body|property)-(multiple-of|unique-items)-(\w+)$/.exec(id);
  const { keyword, type, [action]: [from, to] } = CONSTRAINT_VALUES[name];
  return schemaCase(id, SCHEMA_TARGETS[side][scope], { type, [keyword]: from }, { type, [keyword]: to }, to === undefined ? undefined : keyword);
}

/** Keywords compared by presence: their value when present. */
const PRESENCE = {
  if: ['if', { required: ['label'] }], then: ['then', { required: ['label'] }], else: ['else', { required: ['label'] }],
  contains: ['contains', { type: 'string' }], 'property-names': ['propertyNames', { maxLength: 40 }],
  'unevaluated-items': ['unevaluatedItems', false], 'unevaluated-properties': ['unevaluatedProperties', false],
  'content-schema': ['contentSchema', { type: 'object' }],
  'dependent-schema': ['dependentSchemas', { label: { required: ['size'] } }],
  'pattern-property': ['patternProperties', { '^x-': { type: 'string' } }],
  'dependent-required': ['dependentRequired', { label: ['size'] }],
};
const PRESENCE_IDS = expand('{request,response}-{body,property}-{if,then,else,contains,property-names,unevaluated-items,unevaluated-properties,content-schema,dependent-schema,pattern-property,dependent-required}-{added,removed}');

function presenceCase(id) {
  const [, side, scope, name, action] = /^(request|response)-(body|property)-(.+)-(added|removed)$/.exec(id);
  const [keyword, value] = PRESENCE[name];
  // The request body is closed by additionalProperties: false already, and unevaluatedProperties:
  // false would close nothing more: the case opens it in both copies.
  const opened = keyword === 'unevaluatedProperties' ? { additionalProperties: undefined } : {};
  const fields = (present) => ({ ...opened, [keyword]: present ? value : undefined });
  return schemaCase(id, SCHEMA_TARGETS[side][scope], fields(action === 'removed'), fields(action === 'added'), action === 'added' ? keyword : undefined);
}

const CHANGED_IDS = expand('{request,response}-{body,property}-{dependent-required,content-media-type,content-encoding}-changed');
const CHANGED_VALUES = {
  'dependent-required': ['dependentRequired', { label: ['size'] }, { label: ['region'] }],
  'content-media-type': ['contentMediaType', 'text/plain', 'application/json'],
  'content-encoding': ['contentEncoding', 'base64', 'base32'],
};
function changedCase(id) {
  const [, side, scope, name] = /^(request|response)-(body|property)-(.+)-changed$/.exec(id);
  const [keyword, from, to] = CHANGED_VALUES[name];
  return schemaCase(id, SCHEMA_TARGETS[side][scope], { [keyword]: from }, { [keyword]: to }, keyword);
}

/** allOf parts, oneOf/anyOf alternatives and prefixItems entries added or removed. */
const COMPOSITION_IDS = [
  '{request,response}-{body,property}-{all-of,any-of,one-of,prefix-items}-{added,removed}',
  '{request,response}-{body,property}-all-of-{added,removed}-annotation-only',
].flatMap(expand);
const COMPOSITION = {
  // A part with a rule the field-by-field comparison cannot judge (a part of fields and bounds only
  // is judged by them: the request-restructured and response-restructured cases).
  'all-of': ['allOf', [{ description: 'a part' }], [{ description: 'a part' }, { not: { const: 'reserved' } }]],
  'all-of-annotation': ['allOf', [{ required: ['label'] }], [{ required: ['label'] }, { description: 'an annotation' }]],
  'any-of': ['anyOf', [{ required: ['label'] }], [{ required: ['label'] }, { required: ['size'] }]],
  'one-of': ['oneOf', [{ required: ['label'] }], [{ required: ['label'] }, { required: ['size'] }]],
  'prefix-items': ['prefixItems', [{ type: 'string' }], [{ type: 'string' }, { type: 'integer' }]],
};
function compositionCase(id) {
  const [, side, scope, name, action, annotation] = /^(request|response)-(body|property)-(all-of|any-of|one-of|prefix-items)-(added|removed)(-annotation-only)?$/.exec(id);
  const [keyword, fewer, more] = COMPOSITION[annotation ? 'all-of-annotation' : name];
  const [from, to] = action === 'added' ? [fewer, more] : [more, fewer];
  // An added part is pointed at; a removed one, the schema that lost it.
  const at = action === 'added' ? [keyword, to.length - 1] : [];
  const c = schemaCase(id, SCHEMA_TARGETS[side][scope], { [keyword]: from }, { [keyword]: to });
  return { ...c, at: [...c.at, ...at] };
}

/** Types: [before, after] of `type`. */
const TYPE_CHANGES = {
  'type-changed': ['string', 'integer'], 'type-generalized': ['integer', 'number'], 'type-specialized': ['number', 'integer'],
  'list-of-types-widened': ['string', ['string', 'integer']], 'list-of-types-narrowed': [['string', 'integer'], 'string'],
  'became-nullable': ['string', ['string', 'null']], 'became-not-nullable': [['string', 'null'], 'string'],
};
const TYPE_IDS = [
  'request-{body,property}-{type-changed,type-generalized,list-of-types-widened,list-of-types-narrowed,became-nullable,became-not-nullable}',
  'response-{body,property}-{type-changed,type-generalized,type-specialized,list-of-types-widened,list-of-types-narrowed,became-nullable,became-not-nullable}',
  'request-parameter-{type-changed,type-generalized,list-of-types-widened,list-of-types-narrowed,became-nullable,became-not-nullable}',
  'request-parameter-property-{type-changed,type-generalized,type-specialized,list-of-types-widened,list-of-types-narrowed,became-nullable,became-not-nullable}',
].flatMap(expand);
function typeCase(id) {
  const [, scope, change] = /^(?:request|response)-(body|property|parameter-property|parameter)-(.+)$/.exec(id);
  const target = scope.startsWith('parameter') ? PARAMETER_TARGETS[scope] : SCHEMA_TARGETS[id.split('-')[0]][scope];
  const [from, to] = TYPE_CHANGES[change];
  return schemaCase(id, target, { type: from }, { type: to }, 'type');
}

/** enum and const. */
const VALUE_CHANGES = {
  'became-enum': [{}, { enum: ['a', 'b'] }, 'enum'],
  'enum-value-removed': [{ enum: ['a', 'b'] }, { enum: ['a'] }, 'enum'],
  'enum-value-added': [{ enum: ['a'] }, { enum: ['a', 'b'] }, 'enum'],
  'const-added': [{}, { const: 'a' }, 'const'],
  'const-removed': [{ const: 'a' }, {}, undefined],
  'const-changed': [{ const: 'a' }, { const: 'b' }, 'const'],
  'default-value-added': [{}, { default: 'a' }, 'default'],
  'default-value-removed': [{ default: 'a' }, {}, undefined],
  'default-value-changed': [{ default: 'a' }, { default: 'b' }, 'default'],
  'pattern-added': [{}, { pattern: '^[a-z]+$' }, 'pattern'],
  'pattern-removed': [{ pattern: '^[a-z]+$' }, {}, undefined],
  'pattern-changed': [{ pattern: '^[a-z]+$' }, { pattern: '^[a-z0-9]+$' }, 'pattern'],
  'pattern-generalized': [{ pattern: '^[a-z]+$' }, { pattern: '.*' }, 'pattern'],
};
const VALUE_IDS = [
  'request-{body,property}-{became-enum,const-added,const-removed,const-changed,default-value-added,default-value-removed,default-value-changed}',
  'request-body-enum-value-removed', 'request-property-enum-value-{removed,added}',
  'request-property-pattern-{added,removed,changed,generalized}',
  'response-{body,property}-{const-added,const-removed,const-changed,default-value-added,default-value-removed,default-value-changed}',
  'response-property-enum-value-{removed,added}', 'response-property-pattern-{added,removed,changed}',
  'request-parameter-{became-enum,enum-value-removed,enum-value-added,default-value-added,default-value-removed,default-value-changed}',
  'request-parameter-pattern-{added,removed,changed,generalized}',
  'request-parameter-property-enum-value-{removed,added}', 'request-header-property-became-enum',
].flatMap(expand);
function valueCase(id) {
  const [, scope, change] = /^(?:request|response)-(body|property|parameter-property|parameter|header-property)-(.+)$/.exec(id);
  const target = scope === 'header-property' ? PARAMETER_TARGETS['parameter-property']
    : scope.startsWith('parameter') ? PARAMETER_TARGETS[scope] : SCHEMA_TARGETS[id.split('-')[0]][scope];
  const [from, to, at] = VALUE_CHANGES[change];
  const clear = { enum: undefined, const: undefined, default: undefined, pattern: undefined };
  return schemaCase(id, target, { type: 'string', ...clear, ...from }, { type: 'string', ...clear, ...to }, at);
}

/** deprecated, readOnly and writeOnly of a field; `required` picks a required field of the schema. */
function flagCase(id, side, flag, on, required) {
  const target = SCHEMA_TARGETS[side].property;
  // label is required in both schemas; for an optional field, `size` of the request, a field
  // added to both copies of the response (all of Volume's are required).
  const field = required ? target : side === 'request' ? { ...target, pointer: `${VOLUME_CREATE}/properties/size`, yaml: ['properties', 'size'] }
    : { ...target, pointer: `${VOLUME}/properties/probe`, yaml: ['properties', 'probe'], setUp: set(`${VOLUME}/properties/probe`, { type: 'string' }) };
  return schemaCase(id, field, { [flag]: on ? undefined : true }, { [flag]: on ? true : undefined }, on ? flag : undefined);
}
const FLAG_CASES = [
  ...['request', 'response'].flatMap((side) => [
    flagCase(`${side}-property-deprecated`, side, 'deprecated', true, true),
    flagCase(`${side}-property-reactivated`, side, 'deprecated', false, true),
  ]),
  ...expand('request-{optional,required}-property-became-{write-only,not-write-only}').map((id) => flagCase(id, 'request', 'writeOnly', !id.includes('not-'), id.includes('required'))),
  ...expand('response-{optional,required}-property-became-{read-only,not-read-only}').map((id) => flagCase(id, 'response', 'readOnly', !id.includes('not-'), id.includes('required'))),
];

// ---------------------------------------------------------------------------------------------
// Checks with a change of their own.

const requiredOf = (doc, pointer) => partsOf(pointer).reduce((n, p) => n[p], doc).required;
const withRequired = (pointer, fn) => (doc) => update(doc, `${pointer}/required`, () => fn(requiredOf(doc, pointer)));
const probeProperty = (fields) => set(`${VOLUME}/properties/probe`, { type: 'string', ...fields });
const volumeMedia = `${GET_VOLUME}/responses/200/content`;
const createMedia = `${CREATE_VOLUME}/requestBody/content`;
const renameKey = (pointer, from, to) => (doc) => update(doc, pointer, (content) => Object.fromEntries(Object.entries(content).map(([k, v]) => [k === from ? to : k, v])));
const json = 'application~1json';
const PAT = (scopes) => ({ personalAccessToken: scopes });
const OAUTH_REQ = (scopes) => ({ oauth: scopes });
const headerAt = (status) => `${GET_VOLUME}/responses/${status}/headers/X-RateLimit-Limit`;
const PROPERTY_CASES = [
  { id: 'request-property-became-required', paths: ['/volumes'], before: withRequired(VOLUME_CREATE, () => []), at: [FILES.volumeCreate, 'required', 0] },
  { id: 'request-property-became-required-with-default', paths: ['/volumes'], after: withRequired(VOLUME_CREATE, (r) => [...r, 'size']), at: [FILES.volumeCreate, 'required', 9] },
  { id: 'new-required-request-property', paths: ['/volumes'], before: chain(remove(`${VOLUME_CREATE}/properties/label`), withRequired(VOLUME_CREATE, () => [])), at: [FILES.volumeCreate, 'required', 0] },
  { id: 'new-required-request-property-with-default', paths: ['/volumes'], after: chain(set(`${VOLUME_CREATE}/properties/probe`, { type: 'string', default: 'x' }), withRequired(VOLUME_CREATE, (r) => [...r, 'probe'])), at: [FILES.volumeCreate, 'required', 9] },
  { id: 'new-optional-request-property', paths: ['/volumes'], before: remove(`${VOLUME_CREATE}/properties/size`), at: [FILES.volumeCreate, 'properties', 'size'] },
  { id: 'request-property-became-optional', paths: ['/volumes'], after: withRequired(VOLUME_CREATE, () => []), at: [FILES.volumeCreate, 'required'] },
  { id: 'request-property-removed', paths: ['/volumes'], after: remove(`${VOLUME_CREATE}/properties/size`), at: [FILES.volumeCreate, 'properties'] },
  { id: 'response-required-property-removed', paths: ['/volumes/{volumeId}'], after: chain(remove(`${VOLUME}/properties/label`), withRequired(VOLUME, (r) => r.filter((n) => n !== 'label'))), at: [FILES.volume, 'properties'] },
  { id: 'response-optional-property-removed', paths: ['/volumes/{volumeId}'], before: probeProperty({}), at: [FILES.volume, 'properties'] },
  { id: 'response-optional-property-added', paths: ['/volumes/{volumeId}'], after: probeProperty({}), at: [FILES.volume, 'properties', 'probe'] },
  { id: 'response-required-property-added', paths: ['/volumes/{volumeId}'], before: chain(remove(`${VOLUME}/properties/label`), withRequired(VOLUME, (r) => r.filter((n) => n !== 'label'))), at: [FILES.volume, 'properties', 'label'] },
  { id: 'response-property-became-optional', paths: ['/volumes/{volumeId}'], after: withRequired(VOLUME, (r) => r.filter((n) => n !== 'label')), at: [FILES.volume, 'required'] },
  { id: 'response-property-became-required', paths: ['/volumes/{volumeId}'], before: withRequired(VOLUME, (r) => r.filter((n) => n !== 'label')), at: [FILES.volume, 'required', 1] },
  { id: 'request-body-wrapped-in-one-of', paths: ['/volumes'], after: patch(VOLUME_CREATE, { oneOf: [{ required: ['label'] }, { required: ['size'] }] }), at: [FILES.volumeCreate, 'oneOf', 0] },
  { id: 'response-body-wrapped-in-one-of', paths: ['/volumes/{volumeId}'], after: patch(VOLUME, { oneOf: [{ required: ['label'] }, { required: ['size'] }] }), at: [FILES.volume, 'oneOf', 0] },
  { id: 'response-mediatype-enum-value-removed', paths: ['/volumes/{volumeId}'], before: patch(VOLUME, { enum: [{ id: 1 }, { id: 2 }] }), after: patch(VOLUME, { enum: [{ id: 1 }] }), at: [FILES.volume, 'enum'] },
  // A header parameter's object schema gains a required field, or a field becomes required.
  { id: 'new-required-request-header-property', paths: ['/volumes'], before: withProbeHeader({ properties: { a: { type: 'string' } } }), after: withProbeHeader({ properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['b'] }), at: [FILES.volumes, 'get', 'parameters'] },
  { id: 'request-header-property-became-required', paths: ['/volumes'], before: withProbeHeader({ properties: { a: { type: 'string' } } }), after: withProbeHeader({ properties: { a: { type: 'string' } }, required: ['a'] }), at: [FILES.volumes, 'get', 'parameters'] },
];

const newParameter = (required) => ({ name: 'probe', in: 'query', required, schema: { type: 'string' } });
const dropPageSize = (doc) => update(doc, `${LIST_VOLUMES}/parameters`, (list) => list.filter((p) => p.$ref !== PAGE_SIZE));
const OPERATION_CASES = [
  { id: 'endpoint-added', paths: ['/regions'], before: remove('#/paths/~1regions'), at: [FILES.regions, 'get'] },
  { id: 'api-path-removed-without-deprecation', paths: ['/regions'], after: remove('#/paths/~1regions'), at: [FILES.root, 'paths'] },
  { id: 'api-path-removed-with-deprecation', paths: ['/regions'], before: patch('#/paths/~1regions/get', { deprecated: true }), after: remove('#/paths/~1regions'), at: [FILES.root, 'paths'] },
  { id: 'api-removed-without-deprecation', paths: ['/volumes'], after: remove(CREATE_VOLUME), at: [FILES.volumes] },
  { id: 'api-removed-with-deprecation', paths: ['/volumes'], before: patch(CREATE_VOLUME, { deprecated: true }), after: remove(CREATE_VOLUME), at: [FILES.volumes] },
  { id: 'new-request-path-parameter', paths: ['/volumes/{volumeId}', '/volumes/{volumeId}/{part}'], after: renameKey('#/paths', '/volumes/{volumeId}', '/volumes/{volumeId}/{part}'), at: [FILES.root, 'paths'] },
  { id: 'endpoint-deprecated', paths: ['/volumes'], after: patch(LIST_VOLUMES, { deprecated: true }), at: [FILES.volumes, 'get'] },
  { id: 'endpoint-reactivated', paths: ['/volumes'], before: patch(LIST_VOLUMES, { deprecated: true }), at: [FILES.volumes, 'get'] },
  { id: 'api-operation-id-removed', paths: ['/volumes'], after: patch(LIST_VOLUMES, { operationId: 'listAllVolumes' }), at: [FILES.volumes, 'get', 'operationId'] },
  { id: 'api-tag-added', paths: ['/volumes'], before: patch(LIST_VOLUMES, { tags: [] }), at: [FILES.volumes, 'get', 'tags', 0] },
  { id: 'api-tag-removed', paths: ['/volumes'], after: patch(LIST_VOLUMES, { tags: ['Storage'] }), at: [FILES.volumes, 'get', 'tags'] },
  { id: 'api-schema-removed', paths: ['/volumes'], after: remove('#/components/schemas/Region'), at: [FILES.root, 'components', 'schemas'] },
  // Parameters
  { id: 'new-required-request-parameter', paths: ['/volumes'], after: set(`${LIST_VOLUMES}/parameters/3`, newParameter(true)), at: [FILES.volumes, 'get', 'parameters', 3] },
  { id: 'new-optional-request-parameter', paths: ['/volumes'], before: dropPageSize, at: [FILES.pageSize] },
  { id: 'new-required-request-default-parameter-to-existing-path', paths: ['/volumes'], after: set('#/paths/~1volumes/parameters', [newParameter(true)]), at: [FILES.volumes, 'parameters', 0] },
  { id: 'new-optional-request-default-parameter-to-existing-path', paths: ['/volumes'], after: set('#/paths/~1volumes/parameters', [newParameter(false)]), at: [FILES.volumes, 'parameters', 0] },
  { id: 'request-parameter-removed', paths: ['/volumes'], after: dropPageSize, at: [FILES.volumes, 'get'] },
  { id: 'request-parameter-removed-with-deprecation', paths: ['/volumes'], before: patch(PAGE_SIZE, { deprecated: true }), after: dropPageSize, at: [FILES.volumes, 'get'] },
  { id: 'request-parameter-became-required', paths: ['/volumes'], after: patch(PAGE_SIZE, { required: true }), at: [FILES.pageSize, 'required'] },
  { id: 'request-parameter-became-optional', paths: ['/volumes'], before: patch(PAGE_SIZE, { required: true }), at: [FILES.pageSize] },
  { id: 'request-parameter-deprecated', paths: ['/volumes'], after: patch(PAGE_SIZE, { deprecated: true }), at: [FILES.pageSize, 'deprecated'] },
  { id: 'request-parameter-reactivated', paths: ['/volumes'], before: patch(PAGE_SIZE, { deprecated: true }), at: [FILES.pageSize] },
  // Request bodies
  { id: 'request-body-added-required', paths: ['/volumes'], before: remove(`${CREATE_VOLUME}/requestBody`), at: [FILES.volumes, 'post', 'requestBody'] },
  { id: 'request-body-added-optional', paths: ['/volumes'], before: remove(`${CREATE_VOLUME}/requestBody`), after: patch(`${CREATE_VOLUME}/requestBody`, { required: false }), at: [FILES.volumes, 'post', 'requestBody'] },
  { id: 'request-body-removed', paths: ['/volumes'], after: remove(`${CREATE_VOLUME}/requestBody`), at: [FILES.volumes, 'post'] },
  { id: 'request-body-became-required', paths: ['/volumes'], before: patch(`${CREATE_VOLUME}/requestBody`, { required: false }), at: [FILES.volumes, 'post', 'requestBody', 'required'] },
  { id: 'request-body-became-optional', paths: ['/volumes'], after: patch(`${CREATE_VOLUME}/requestBody`, { required: false }), at: [FILES.volumes, 'post', 'requestBody'] },
  { id: 'request-body-media-type-added', paths: ['/volumes'], after: set(`${createMedia}/application~1x-www-form-urlencoded`, { schema: { type: 'object' } }), at: [FILES.volumes, 'post', 'requestBody', 'content'] },
  { id: 'request-body-media-type-removed', paths: ['/volumes'], after: renameKey(createMedia, 'application/json', 'application/vnd.cloud+json'), at: [FILES.volumes, 'post', 'requestBody', 'content'] },
  { id: 'request-body-media-type-schema-added', paths: ['/volumes'], before: remove(`${createMedia}/${json}/schema`), at: [FILES.volumes, 'post', 'requestBody', 'content', 'application/json', 'schema'] },
  { id: 'request-body-media-type-schema-removed', paths: ['/volumes'], after: remove(`${createMedia}/${json}/schema`), at: [FILES.volumes, 'post', 'requestBody', 'content', 'application/json'] },
  // Responses
  { id: 'response-success-status-removed', paths: ['/volumes/{volumeId}'], before: set(`${GET_VOLUME}/responses/202`, { description: 'Accepted.' }), at: [FILES.volumeItem, 'get', 'responses'] },
  { id: 'response-success-status-added', paths: ['/volumes/{volumeId}'], before: remove(`${GET_VOLUME}/responses/200`), at: [FILES.volumeItem, 'get', 'responses', '200'] },
  { id: 'response-non-success-status-removed', paths: ['/volumes/{volumeId}'], after: remove(`${GET_VOLUME}/responses/404`), at: [FILES.volumeItem, 'get', 'responses'] },
  { id: 'response-non-success-status-added', paths: ['/volumes/{volumeId}'], before: remove(`${GET_VOLUME}/responses/404`), at: [FILES.volumeItem, 'get', 'responses', '404'] },
  { id: 'response-media-type-removed', paths: ['/volumes/{volumeId}'], after: renameKey(volumeMedia, 'application/json', 'application/vnd.cloud+json'), at: [FILES.volumeItem, 'get', 'responses', '200', 'content'] },
  { id: 'response-media-type-added', paths: ['/volumes/{volumeId}'], after: set(`${volumeMedia}/application~1xml`, { schema: { type: 'object' } }), at: [FILES.volumeItem, 'get', 'responses', '200', 'content'] },
  { id: 'response-media-type-name-changed', paths: ['/volumes/{volumeId}'], after: renameKey(volumeMedia, 'application/json', 'application/json; charset=utf-8'), at: [FILES.volumeItem, 'get', 'responses', '200', 'content'] },
  { id: 'response-media-type-name-generalized', paths: ['/volumes/{volumeId}'], after: renameKey(volumeMedia, 'application/json', 'application/*'), at: [FILES.volumeItem, 'get', 'responses', '200', 'content'] },
  { id: 'response-media-type-name-specialized', paths: ['/volumes/{volumeId}'], before: renameKey(volumeMedia, 'application/json', 'application/*'), at: [FILES.volumeItem, 'get', 'responses', '200', 'content'] },
  { id: 'response-body-media-type-schema-added', paths: ['/volumes/{volumeId}'], before: remove(`${volumeMedia}/${json}/schema`), at: [FILES.volumeItem, 'get', 'responses', '200', 'content', 'application/json', 'schema'] },
  { id: 'response-body-media-type-schema-removed', paths: ['/volumes/{volumeId}'], after: remove(`${volumeMedia}/${json}/schema`), at: [FILES.volumeItem, 'get', 'responses', '200', 'content', 'application/json'] },
  // Response headers (the rate-limit headers the bundle adds to every success)
  { id: 'response-header-added', paths: ['/volumes/{volumeId}'], before: remove(headerAt(200)), at: [FILES.volumeItem, 'get', 'responses', '200'] },
  { id: 'required-response-header-removed', paths: ['/volumes/{volumeId}'], before: patch(RATE_LIMIT, { required: true }), after: remove(headerAt(200)), at: [FILES.volumeItem, 'get', 'responses', '200'] },
  { id: 'optional-response-header-removed', paths: ['/volumes/{volumeId}'], after: remove(headerAt(200)), at: [FILES.volumeItem, 'get', 'responses', '200'] },
  { id: 'response-header-became-optional', paths: ['/volumes/{volumeId}'], before: patch(RATE_LIMIT, { required: true }), at: [FILES.rateLimit] },
  ...Object.entries({
    'response-header-type-changed': ['boolean', 'integer'], 'response-header-type-generalized': ['integer', 'number'],
    'response-header-type-specialized': ['number', 'integer'], 'response-header-type-compatible': ['string', 'integer'],
    'response-header-became-nullable': ['integer', ['integer', 'null']], 'response-header-became-not-nullable': [['integer', 'null'], 'integer'],
  }).map(([id, [from, to]]) => ({ id, paths: ['/volumes/{volumeId}'], before: patch(`${RATE_LIMIT}/schema`, { type: from }), after: patch(`${RATE_LIMIT}/schema`, { type: to }), at: [FILES.rateLimit, 'schema', 'type'] })),
  // Security
  { id: 'api-security-removed', paths: ['/volumes'], after: set(`${LIST_VOLUMES}/security`, [PAT(['volumes:read_only'])]), at: [FILES.volumes, 'get', 'security'] },
  { id: 'api-security-added', paths: ['/volumes'], before: set(`${LIST_VOLUMES}/security`, [PAT(['volumes:read_only'])]), at: [FILES.volumes, 'get', 'security', 1] },
  { id: 'api-security-scope-added', paths: ['/volumes'], after: set(`${LIST_VOLUMES}/security`, [PAT(['volumes:read_only', 'computes:read_only']), OAUTH_REQ(['volumes:read_only'])]), at: [FILES.volumes, 'get', 'security', 0] },
  { id: 'api-security-scope-removed', paths: ['/volumes'], before: set(`${LIST_VOLUMES}/security`, [PAT(['volumes:read_only', 'computes:read_only']), OAUTH_REQ(['volumes:read_only'])]), at: [FILES.volumes, 'get', 'security', 0] },
  { id: 'api-security-component-added', paths: [], before: remove(OAUTH), at: [FILES.root, 'components', 'securitySchemes', 'oauth'] },
  { id: 'api-security-component-removed', paths: [], after: remove(OAUTH), at: [FILES.root, 'components', 'securitySchemes'] },
  { id: 'api-security-component-type-changed', paths: [], after: patch(OAUTH, { type: 'openIdConnect' }), at: [FILES.root, 'components', 'securitySchemes', 'oauth', 'type'] },
  { id: 'api-security-component-oauth-url-changed', paths: [], after: patch(`${OAUTH}/flows/authorizationCode`, { authorizationUrl: 'https://login.cloud.example/authorize' }), at: [FILES.root, 'components', 'securitySchemes', 'oauth', 'flows', 'authorizationCode', 'authorizationUrl'] },
  { id: 'api-security-component-oauth-token-url-changed', paths: [], after: patch(`${OAUTH}/flows/authorizationCode`, { tokenUrl: 'https://login.cloud.example/token' }), at: [FILES.root, 'components', 'securitySchemes', 'oauth', 'flows', 'authorizationCode', 'tokenUrl'] },
  { id: 'api-security-component-oauth-scope-added', paths: [], before: patch(`${OAUTH}/flows/authorizationCode/scopes`, { 'volumes:read_only': undefined }), at: [FILES.root, 'components', 'securitySchemes', 'oauth', 'flows', 'authorizationCode', 'scopes', 'volumes:read_only'] },
  { id: 'api-security-component-oauth-scope-removed', paths: [], after: patch(`${OAUTH}/flows/authorizationCode/scopes`, { 'volumes:read_only': undefined }), at: [FILES.root, 'components', 'securitySchemes', 'oauth', 'flows', 'authorizationCode', 'scopes'] },
  { id: 'api-security-component-oauth-scope-changed', paths: [], after: patch(`${OAUTH}/flows/authorizationCode/scopes`, { 'volumes:read_only': 'Read volumes.' }), at: [FILES.root, 'components', 'securitySchemes', 'oauth', 'flows', 'authorizationCode', 'scopes', 'volumes:read_only'] },
];

/** An object schema whose type, fields and required list move into an allOf part; a closed one stays closed. */
const intoAllOfPart = ({ type, required, properties, additionalProperties, ...rest }) => ({
  ...rest,
  allOf: [{ type, required, properties }],
  ...(additionalProperties === false ? { unevaluatedProperties: false } : {}),
});

/** Ours beyond oasdiff's catalogue, by our code. */
export const EXTRA_CASES = [
  { id: 'base-path-changed', paths: [], after: (doc) => update(doc, '#/servers/0/url', (url) => url.replace(/\/v4$/, '/v5')), at: [FILES.root, 'servers', 0, 'url'] },
  { id: 'server-url-changed', paths: [], after: (doc) => update(doc, '#/servers/0/url', (url) => url.replace('api.cloud.example', 'api.cloud.example.net')), at: [FILES.root, 'servers', 0, 'url'] },
  { id: 'security-tightened', paths: ['/regions'], after: set('#/paths/~1regions/get/security', [PAT(['account:read_only'])]), at: [FILES.regions, 'get', 'security'] },
  { id: 'request-property-removed-open', paths: ['/volumes'], before: patch(VOLUME_CREATE, { additionalProperties: undefined }), after: chain(patch(VOLUME_CREATE, { additionalProperties: undefined }), remove(`${VOLUME_CREATE}/properties/size`)), at: [FILES.volumeCreate, 'properties'] },
  { id: 'parameter-renamed', paths: ['/volumes/{volumeId}', '/volumes/{id}'], after: chain(renameKey('#/paths', '/volumes/{volumeId}', '/volumes/{id}'), patch('#/components/parameters/VolumeId', { name: 'id' })), at: ['components/parameters/volumes/VolumeId.yaml'] },
  { id: 'response-header-required', paths: ['/volumes/{volumeId}'], after: patch(RATE_LIMIT, { required: true }), at: [FILES.rateLimit, 'required'] },
  // An object-valued header written exploded (`a=1,b=2` where it was `a,1,b,2`).
  { id: 'parameter-serialization-changed', paths: ['/volumes'], before: withProbeHeader({ properties: { a: { type: 'string' } } }), after: chain(withProbeHeader({ properties: { a: { type: 'string' } } }), patch(PROBE_HEADER, { explode: true })), at: [FILES.volumes, 'get', 'parameters'] },
  // The closed create body split into an allOf part and unevaluatedProperties: false (the same
  // fields, the same rules), as a designer does to share a part between bodies.
  { id: 'request-restructured', paths: ['/volumes'], after: (doc) => update(doc, VOLUME_CREATE, intoAllOfPart), at: [FILES.volumeCreate, 'allOf', 0] },
  // The read schema of a volume merged back from an allOf part: its answers are no wider.
  { id: 'response-restructured', paths: ['/volumes/{volumeId}'], before: (doc) => update(doc, VOLUME, intoAllOfPart), at: [FILES.volume] },
];

/** Every case of an oasdiff check, by its id. */
export const CASES = [
  ...BOUND_IDS.map(boundCase),
  ...CONSTRAINT_IDS.map(constraintCase),
  ...PRESENCE_IDS.map(presenceCase),
  ...CHANGED_IDS.map(changedCase),
  ...COMPOSITION_IDS.map(compositionCase),
  ...TYPE_IDS.map(typeCase),
  ...VALUE_IDS.map(valueCase),
  ...FLAG_CASES,
  ...PROPERTY_CASES,
  ...OPERATION_CASES,
];
