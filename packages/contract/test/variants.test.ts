// Negative variants: each breaks one rule of the body's schema and names the field it breaks.
import { describe, expect, it } from 'vitest';
import { createSchemaViews, pointerOf } from '@cloudapi/spec/schema-views';
import { bodiesOf, mediaExamples, operations } from '@cloudapi/spec/walk';
import { createVariantDeriver, loadDocument } from '../src/index.js';
import { sampleValue, wrongTypeFor } from '../src/model/values.js';

const bundle = loadDocument();
const views = createSchemaViews(bundle);
const deriver = createVariantDeriver(views);
const schema = (name) => pointerOf('components', 'schemas', name);
const example = (name) => bundle.components.examples[name].value;
const summary = (variants) => variants.map((v) => `${v.rule} ${v.fields.join('|')}`);

describe('variants of the bundle\'s request bodies', () => {
  it('break VolumeCreateRequest one rule at a time, conditional rules included', () => {
    const variants = deriver.deriveVariants(schema('VolumeCreateRequest'), [example('VolumeCreateInRegion'), example('VolumeCreateAttached')]);
    expect(summary(variants)).toEqual(expect.arrayContaining([
      'required label', 'unknown field unexpected_field', 'type size', 'range size', 'range label', 'range tags.0',
      'conditional region|compute_id', 'conditional compute_id|config_id',
    ]));
    const ifThen = variants.find((v) => v.rule === 'conditional' && v.fields[0] === 'region');
    expect(ifThen.value).not.toHaveProperty('region');
    expect(ifThen.value).not.toHaveProperty('compute_id');
    const dependent = variants.find((v) => v.fields.includes('config_id'));
    expect(dependent.value).toHaveProperty('config_id');
    expect(dependent.value).not.toHaveProperty('compute_id');
  });

  it('break the if/then/not rule of VolumeAttachRequest by adding config_id to persist_across_boots false', () => {
    const variants = deriver.deriveVariants(schema('VolumeAttachRequest'), [example('VolumeAttach'), example('VolumeAttachUntilShutdown')]);
    const conditional = variants.filter((v) => v.rule === 'conditional');
    expect(conditional).toHaveLength(1);
    expect(conditional[0].value).toMatchObject({ persist_across_boots: false, config_id: expect.any(Number) });
    expect(conditional[0].fields).toContain('config_id');
  });

  it('give an unknown value to an enum the example leaves out', () => {
    const variants = deriver.deriveVariants(schema('ImageUpdateRequest'), [example('ImageUpdate')]);
    expect(variants.find((v) => v.rule === 'enum')).toMatchObject({ fields: ['status'], value: { status: 'not-a-listed-value' } });
  });

  it('are each rejected by the schema, and none is the valid example itself', () => {
    let count = 0;
    for (const op of operations(bundle)) {
      for (const body of bodiesOf(bundle, op).filter((b) => b.kind === 'request')) {
        const examples = mediaExamples(bundle, body.media).map((e) => e.value);
        for (const variant of deriver.deriveVariants(body.schemaPointer, examples)) {
          count++;
          expect(views.validate('request', body.schemaPointer, variant.value).valid, variant.description).toBe(false);
          expect(examples).not.toContainEqual(variant.value);
          expect(variant.fields.length).toBeGreaterThan(0);
        }
      }
    }
    expect(count).toBeGreaterThan(50);
  });

  it('are none when no example is valid (the kit reports the spec instead)', () => {
    expect(deriver.deriveVariants(schema('VolumeCreateRequest'), [{ label: 5 }])).toEqual([]);
  });
});

describe('variants from other schema shapes', () => {
  const document = {
    openapi: '3.1.0',
    components: {
      schemas: {
        Contact: {
          type: 'object',
          additionalProperties: false,
          properties: {
            email: { type: 'string', format: 'email' },
            code: { type: 'string', pattern: '^[A-Z]{3}$' },
            kind: { type: 'string', const: 'person' },
            phones: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string' } },
            image: { type: 'string' },
            backup_id: { type: 'integer' },
          },
          not: { required: ['image', 'backup_id'] },
        },
        Either: {
          oneOf: [
            { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } },
            { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
          ],
        },
        Upload: { type: 'object', required: ['file'], additionalProperties: false, properties: { file: { type: 'string', contentMediaType: 'text/plain' }, note: { type: 'string', maxLength: 3 } } },
        Page: { type: 'integer', minimum: 25, maximum: 100 },
        Id: { type: 'string', pattern: '^private/\\d+$' },
      },
    },
  };
  const local = createVariantDeriver(createSchemaViews(document));

  it('break formats, patterns, constants, array sizes and a `not` exclusion', () => {
    const variants = local.deriveVariants(schema('Contact'), [{ email: 'a@example.com', code: 'ABC', kind: 'person', phones: ['1'], image: 'x' }]);
    expect(summary(variants)).toEqual(expect.arrayContaining(['format email', 'pattern code', 'enum kind', 'range phones', 'conditional image|backup_id']));
    expect(variants.find((v) => v.rule === 'conditional').value).toMatchObject({ image: 'x', backup_id: expect.any(Number) });
  });

  it('break a oneOf by matching two branches', () => {
    const variants = local.deriveVariants(schema('Either'), [{ a: 1 }]);
    expect(variants.find((v) => v.rule === 'conditional')).toMatchObject({ value: { a: 1, b: expect.any(Number) }, fields: ['b', 'a'] });
  });

  it('keep only what a form can carry for a non-JSON body', () => {
    const variants = local.deriveVariants(schema('Upload'), [{ file: 'hello', note: 'ab' }], { jsonBody: false });
    expect(summary(variants)).toEqual(['required file']);
  });

  it('break query and path parameters, never with an empty path segment', () => {
    expect(local.parameterVariants(schema('Page'), 25, 'query').map((v) => v.value)).toEqual(['not-a-number', 24, 101]);
    expect(local.parameterVariants(schema('Id'), 'private/15', 'path').map((v) => v.value)).toEqual(['!']);
  });
});

describe('values built from schemas', () => {
  const resolve = (node) => node;
  it('respect constants, defaults, enums, formats and bounds', () => {
    expect(sampleValue({ type: 'integer', minimum: 25 }, resolve)).toBe(25);
    expect(sampleValue({ type: 'string', format: 'email' }, resolve)).toBe('someone@example.com');
    expect(sampleValue({ type: 'string', minLength: 10 }, resolve)).toHaveLength(10);
    expect(sampleValue({ enum: [null, 'a'] }, resolve)).toBe('a');
    expect(sampleValue({ type: 'object', required: ['n'], properties: { n: { type: 'boolean' } } }, resolve)).toEqual({ n: true });
  });
  it('give a value of another type', () => {
    expect(wrongTypeFor('x', { type: 'string' })).toBe(12345);
    expect(wrongTypeFor(3, { type: ['integer', 'null'] })).toBe('not-a-number');
    expect(wrongTypeFor([1], { type: 'array' })).toBe('not-an-array');
  });
});
