// The X-Filter language (lib/filters.mjs) on the real bundle: the fields come from the marks, the
// bundle's generated per-list schema and the parser agree on what is a valid filter, and every
// refusal names the field or operator.
import { describe, expect, it } from 'vitest';
import { createSchemaViews } from '../lib/schema-views.mjs';
import { FilterError, filterSchemaName, filterSpecs, matchesFilter, parseFilter } from '../lib/filters.mjs';
import { loadBundle } from './helpers.mjs';

const bundle = loadBundle();
const specs = filterSpecs(bundle);
const views = createSchemaViews(bundle);

describe('X-Filter', () => {
  it('derives each list\'s fields and their kinds from the x-filterable marks', () => {
    expect(specs.get('listVolumes').fields).toEqual({ label: { kind: 'text', nullable: false }, tags: { kind: 'tags', nullable: false } });
    expect(specs.get('listImages').fields).toMatchObject({ size: { kind: 'integer' }, is_public: { kind: 'boolean' }, vendor: { kind: 'text', nullable: true }, type: { kind: 'text', enum: ['manual', 'automatic'] } });
    expect(specs.get('listSupportTickets').fields).toEqual({ opened: { kind: 'timestamp', nullable: false }, closed: { kind: 'timestamp', nullable: true }, updated: { kind: 'timestamp', nullable: false } });
    expect(specs.has('listRegions')).toBe(false);
    // Every list with a spec takes the header, whose schema is the generated one.
    for (const [operationId, spec] of specs) {
      const header = bundle.paths[spec.path].get.parameters.find((p) => p.name === 'X-Filter');
      expect(header?.content['application/json'].schema.$ref, operationId).toBe(`#/components/schemas/${filterSchemaName(operationId)}`);
    }
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
    const schema = views.validate('request', `#/components/schemas/${filterSchemaName('listVolumes')}`, filter);
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
