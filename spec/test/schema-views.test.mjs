// The schema views' report of undeclared fields: what an open response schema accepts without
// declaring it, which the contract kit reports.
import { describe, expect, it } from 'vitest';
import { createSchemaViews, escapePointerPart, pointerOf } from '../lib/schema-views.mjs';
import { loadBundle } from './helpers.mjs';
import { parameterExamples } from '../lib/walk.mjs';

const bundle = loadBundle();
const views = createSchemaViews(bundle);
const schema = (name) => pointerOf('components', 'schemas', name);

const document = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Shape: {
        type: 'object',
        required: ['kind'],
        properties: { kind: { type: 'string' }, secret: { type: 'string', writeOnly: true } },
        patternProperties: { '^x_': { type: 'string' } },
        if: { properties: { kind: { const: 'circle' } } },
        then: { properties: { radius: { type: 'number' } } },
        else: { properties: { side: { type: 'number' } } },
        dependentSchemas: { kind: { properties: { note: { type: 'string' } } } },
      },
      Either: {
        oneOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } },
          { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
        ],
      },
      Map: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Either' } },
      Tuple: { type: 'array', prefixItems: [{ $ref: '#/components/schemas/Either' }], items: { type: 'object', properties: { z: {} } } },
    },
  },
};
const local = createSchemaViews(document);

describe('schema views: undeclared fields', () => {
  it('escapes pointer tokens', () => {
    expect(escapePointerPart('application/json~x')).toBe('application~1json~0x');
    expect(pointerOf('paths', '/volumes', 'get')).toBe('#/paths/~1volumes/get');
  });

  it('accepts properties, pattern properties, the branch `if` chooses and dependent schemas', () => {
    expect(local.undeclared('response', schema('Shape'), { kind: 'circle', radius: 2, x_tag: 'a', note: 'n' })).toEqual([]);
    expect(local.undeclared('response', schema('Shape'), { kind: 'circle', side: 2 })).toEqual(['/side']);
    expect(local.undeclared('response', schema('Shape'), { kind: 'square', side: 2, radius: 1, y: 1 })).toEqual(['/radius', '/y']);
  });

  it('counts a write-only field as declared (validation, not this report, rejects it)', () => {
    expect(local.undeclared('response', schema('Shape'), { kind: 'square', secret: 's' })).toEqual([]);
    expect(local.validate('response', schema('Shape'), { kind: 'square', secret: 's' }).valid).toBe(false);
  });

  it('follows the oneOf branch the value matches, into maps and tuples', () => {
    expect(local.undeclared('response', schema('Either'), { a: 1, b: 'x' })).toEqual(['/b']);
    expect(local.undeclared('response', schema('Map'), { one: { a: 1 }, two: { b: 2, c: 3 } })).toEqual(['/two/c']);
    expect(local.undeclared('response', schema('Tuple'), [{ a: 1, q: 1 }, { z: 1, w: 2 }])).toEqual(['/0/q', '/1/w']);
  });

  it('gives each validation error the schema path it failed, through $refs as written', () => {
    const pointer = pointerOf('components', 'schemas', 'VolumeAttachRequest');
    const { errors } = views.validate('request', pointer, { compute_id: 1, config_id: 2, persist_across_boots: false });
    expect(errors.map((e) => [e.keyword, e.schemaPath])).toEqual([['not', `${pointer}/then/not`], ['if', `${pointer}/if`]]);
  });

  it('finds an extra field inside a list item of the bundle, through allOf and $ref', () => {
    const [volume] = bundle.components.examples.VolumeList.value.data;
    const page = { data: [{ ...volume, colour: 'blue' }], page: 1, pages: 1, results: 1 };
    expect(views.validate('response', schema('VolumeList'), page).valid).toBe(true);
    expect(views.undeclared('response', schema('VolumeList'), page)).toEqual(['/data/0/colour']);
    expect(views.undeclared('response', schema('VolumeList'), bundle.components.examples.VolumeList.value)).toEqual([]);
  });
});

describe('parameterExamples', () => {
  const doc = {
    components: {
      examples: { Named: { value: 'from-named' } },
      schemas: { Kind: { type: 'string', enum: ['a', 'b'], default: 'b' } },
    },
  };
  it('lists what the spec gives, best first', () => {
    expect(parameterExamples(doc, { name: 'x', example: 'own', examples: { n: { $ref: '#/components/examples/Named' } }, schema: { $ref: '#/components/schemas/Kind' } }))
      .toEqual(['own', 'from-named', 'b', 'a']);
    expect(parameterExamples(doc, { name: 'x', schema: { type: 'integer', examples: [7], const: 7 } })).toEqual([7, 7]);
  });
  it('is empty when the spec gives nothing', () => {
    expect(parameterExamples(doc, { name: 'x', schema: { type: 'string' } })).toEqual([]);
  });
});
