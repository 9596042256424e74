// The X-Filter language (lib/filters.mjs) on the real bundle: the fields come from the marks, the
// bundle's generated per-list schema and the parser agree on what is a valid filter, and every
// refusal names the field or operator.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSchemaViews } from '../lib/schema-views.mjs';
import { FILTER_SCHEMAS, FilterError, encodeFilterHeader, filterSchemaName, filterSchemaOf, filterSchemaPointer, filterSpecs, matchesFilter, parseFilter, specializeFilterParameters, withFilterSchemasAsComponents } from '../lib/filters.mjs';
import { loadBundle, specDir } from './helpers.mjs';

const bundle = loadBundle();
const specs = filterSpecs(bundle);
const views = createSchemaViews(bundle);

describe('X-Filter', () => {
  it('derives each list\'s fields and their kinds from the x-filterable marks', () => {
    expect(specs.get('listVolumes').fields).toEqual({ label: { kind: 'text', nullable: false }, tags: { kind: 'tags', nullable: false } });
    expect(specs.get('listImages').fields).toMatchObject({ size: { kind: 'integer' }, is_public: { kind: 'boolean' }, vendor: { kind: 'text', nullable: true }, type: { kind: 'text', enum: ['manual', 'automatic'] } });
    expect(specs.get('listSupportTickets').fields).toEqual({ opened: { kind: 'timestamp', nullable: false }, closed: { kind: 'timestamp', nullable: true }, updated: { kind: 'timestamp', nullable: false } });
    expect(specs.has('listRegions')).toBe(false);
  });

  it('is a string header whose JSON is described by the list\'s generated contentSchema, kept out of components.schemas', () => {
    for (const [operationId, spec] of specs) {
      const header = bundle.paths[spec.path].get.parameters.find((p) => p.name === 'X-Filter');
      expect(header.content, operationId).toBeUndefined();
      expect(header.schema, operationId).toMatchObject({ type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: `#/components/${FILTER_SCHEMAS}/${filterSchemaName(operationId)}` } });
      expect(filterSchemaOf(header), operationId).toEqual({ name: filterSchemaName(operationId), pointer: filterSchemaPointer(filterSchemaName(operationId)) });
    }
    // No component schema carries the language's property names: generators turn each into code.
    const plusNames = Object.entries(bundle.components.schemas).filter(([, schema]) => JSON.stringify(schema).includes('"+'));
    expect(plusNames.map(([name]) => name)).toEqual([]);
    expect(Object.keys(bundle.components[FILTER_SCHEMAS])).toHaveLength(2 * specs.size);
    expect(filterSchemaOf({ name: 'X-Filter', in: 'query', schema: bundle.paths['/volumes'].get.parameters.find((p) => p.name === 'X-Filter').schema })).toBeNull();
  });

  it('bundles sources of before issue 39 (a header with JSON content) in their own form, so old releases compare as they were', () => {
    const old = structuredClone(bundle);
    delete old.components[FILTER_SCHEMAS];
    old.components.parameters.XFilter = { name: 'X-Filter', in: 'header', description: 'Filters.', content: { 'application/json': { schema: { type: 'object' } } } };
    for (const spec of specs.values()) {
      const parameters = old.paths[spec.path].get.parameters;
      parameters[parameters.findIndex((p) => p.name === 'X-Filter')] = { $ref: '#/components/parameters/XFilter' };
    }
    specializeFilterParameters(old);
    const header = old.paths['/volumes'].get.parameters.find((p) => p.name === 'X-Filter');
    expect(header.schema).toBeUndefined();
    expect(header.content['application/json'].schema).toEqual({ $ref: filterSchemaPointer('ListVolumesFilter') });
    expect(old.components[FILTER_SCHEMAS].ListVolumesFilter).toEqual(bundle.components[FILTER_SCHEMAS].ListVolumesFilter);
    expect(old.components.parameters.XFilter, 'the shared parameter, used by nothing now, is dropped').toBeUndefined();
  });

  it('gives each list an example header that its own filter accepts', () => {
    for (const [operationId, spec] of specs) {
      const header = bundle.paths[spec.path].get.parameters.find((p) => p.name === 'X-Filter');
      expect(header.schema.examples.length, operationId).toBeGreaterThan(0);
      for (const example of header.schema.examples) {
        expect(() => parseFilter(example, spec), `${operationId}: ${example}`).not.toThrow();
        expect(views.validate('request', filterSchemaOf(header).pointer, JSON.parse(example)).valid, `${operationId}: ${example}`).toBe(true);
      }
    }
  });

  it('offers the filter schemas as ordinary component schemas to a generator that takes them (the types package)', () => {
    const copy = withFilterSchemasAsComponents(bundle);
    expect(copy.components[FILTER_SCHEMAS]).toBeUndefined();
    expect(copy.components.schemas.ListVolumesFilter.properties['+and'].items).toEqual({ $ref: '#/components/schemas/ListVolumesFilterClause' });
    expect(copy.paths['/volumes'].get.parameters.find((p) => p.name === 'X-Filter').schema.contentSchema).toEqual({ $ref: '#/components/schemas/ListVolumesFilter' });
    expect(bundle.components.schemas.ListVolumesFilter, 'the bundle itself is left as it is').toBeUndefined();
  });

  it('leaves the structure out of the 3.0 edition, where the header is a plain string', () => {
    const document30 = JSON.parse(readFileSync(path.join(specDir, 'dist', 'openapi.3.0.json'), 'utf8'));
    const header = document30.paths['/volumes'].get.parameters.find((p) => p.name === 'X-Filter');
    expect(header.schema).toEqual({ type: 'string', example: bundle.paths['/volumes'].get.parameters.find((p) => p.name === 'X-Filter').schema.examples[0] });
    expect(document30.components[FILTER_SCHEMAS]).toBeUndefined();
  });

  it('encodes a filter as header text of ASCII only, which parses back to the same filter', () => {
    const filter = { label: 'caf\u00e9 \u2603 \u{1F600} \u0001', '+or': [{ tags: '\u00ff\u0100' }] };
    const text = encodeFilterHeader(filter);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(text)).toEqual(filter);
    // A fetch refuses a header value past U+00FF: the encoded text goes through.
    expect(() => new Headers({ 'X-Filter': text })).not.toThrow();
    expect(() => new Headers({ 'X-Filter': JSON.stringify(filter) })).toThrow();
  });

  const samples = [
    [{ label: 'a', tags: { '+contains': 'prod' }, '+order_by': 'created', '+order': 'desc' }, true],
    [{ '+or': [{ label: { '+neq': 'x' } }, { '+and': [{ tags: 'db' }] }] }, true],
    [{ size: 1 }, false],
    [{ label: { '+gt': 'a' } }, false],
    [{ label: 5 }, false],
    [{ label: { '+contains': 'a', '+neq': 'b' } }, false],
    [{ '+order': 'asc' }, false],
    [{ '+order_by': 'tags' }, false],
    [{ '+or': [] }, false],
  ];
  it.each(samples)('the generated schema and the parser agree on %j', (filter, valid) => {
    const schema = views.validate('request', filterSchemaPointer(filterSchemaName('listVolumes')), filter);
    expect(schema.valid).toBe(valid);
    const parse = () => parseFilter(JSON.stringify(filter), specs.get('listVolumes'));
    if (valid) expect(parse).not.toThrow();
    else expect(parse).toThrow(FilterError);
  });

  it('names the offending field or operator in each refusal', () => {
    const reason = (text) => { try { parseFilter(text, specs.get('listImages')); } catch (e) { return e.reason; } return 'accepted'; };
    expect(reason('{"size": {"+contains": "1"}}')).toMatch(/"\+contains" does not apply to "size" \(integer\)/);
    expect(reason('{"size": 1.5}')).toMatch(/"size" takes an integer/);
    expect(reason('{"size": 1e400}')).toMatch(/"size" takes an integer/);
    expect(reason('{"type": "other"}')).toMatch(/"type" takes one of manual, automatic/);
    expect(reason('{"label": null}')).toMatch(/"label" cannot be null/);
    expect(reason('{"__proto__": 1}')).toMatch(/"__proto__" is not a filterable field/);
    expect(reason('{"+and": [{"+and": [{"+and": [{"+and": [{"+and": [{}]}]}]}]}]}')).toMatch(/nests deeper than 4/);
    expect(reason(`{"label": "${'a'.repeat(5000)}"}`)).toMatch(/over the limit of 4096/);
    expect(reason('{"vendor": null, "is_public": {"+neq": false}}')).toBe('accepted');
  });

  it('evaluates a parsed filter in memory', () => {
    const spec = specs.get('listVolumes');
    const { where } = parseFilter('{"+or": [{"label": {"+contains": "db"}}, {"tags": "prod"}]}', spec);
    expect(matchesFilter({ label: 'my-db', tags: [] }, where, spec)).toBe(true);
    expect(matchesFilter({ label: 'web', tags: ['prod'] }, where, spec)).toBe(true);
    expect(matchesFilter({ label: 'web', tags: ['production'] }, where, spec)).toBe(false);
  });
});
