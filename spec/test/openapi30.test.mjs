// The OpenAPI 3.0.3 edition of the bundle (spec/dist/openapi.3.0.{yaml,json}): valid against the
// official 3.0 schema, free of 3.1-only forms, the same operations and schemas as the bundle,
// and every kind of loss written down in DECISIONS.md section 16.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { LOSS_MEANING, downConvert } from '../lib/down-convert.mjs';
import { loadBundle, specDir } from './helpers.mjs';

const bundle = loadBundle();
const read = (name) => readFileSync(path.join(specDir, 'dist', name), 'utf8');
const document30 = JSON.parse(read('openapi.3.0.json'));

async function errorsOf(document) {
  const result = await new Validator().validate(structuredClone(document));
  return result.valid ? [] : result.errors;
}

// Every schema-valued spot of a document, for looking for 3.1-only forms.
function* schemas(node, where = '#') {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) { for (const [i, n] of node.entries()) yield* schemas(n, `${where}/${i}`); return; }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === 'schema' || (where === '#/components' && key === 'schemas')) yield* subschemas(key === 'schema' ? { s: value } : value, where);
    else yield* schemas(value, `${where}/${key}`);
  }
}
function* subschemas(map, where) {
  for (const [name, schema] of Object.entries(map)) {
    if (!schema || typeof schema !== 'object') continue;
    yield [`${where}/${name}`, schema];
    for (const key of ['allOf', 'oneOf', 'anyOf']) if (schema[key]) yield* subschemas(Object.fromEntries(schema[key].entries()), `${where}/${name}/${key}`);
    for (const key of ['not', 'items', 'additionalProperties']) if (schema[key] && typeof schema[key] === 'object') yield* subschemas({ [key]: schema[key] }, `${where}/${name}`);
    if (schema.properties) yield* subschemas(schema.properties, `${where}/${name}/properties`);
  }
}

describe('the OpenAPI 3.0.3 edition', () => {
  it('is 3.0.3, the same in YAML and JSON, and valid against the official 3.0 schema', async () => {
    expect(document30.openapi).toBe('3.0.3');
    expect(parse(read('openapi.3.0.yaml'))).toEqual(document30);
    expect(await errorsOf(document30)).toEqual([]);
  });

  it('is rejected by the 3.0 schema when it keeps a 3.1 form (the check can fail)', async () => {
    const broken = structuredClone(document30);
    broken.components.schemas.Volume.properties.label.type = ['string', 'null'];
    expect((await errorsOf(broken)).length).toBeGreaterThan(0);
  });

  it('has every operation and schema of the bundle', () => {
    const ops = (d) => Object.entries(d.paths).flatMap(([p, item]) => Object.keys(item).filter((m) => ['get', 'put', 'post', 'delete'].includes(m)).map((m) => `${m} ${p} ${item[m].operationId}`));
    expect(ops(document30)).toEqual(ops(bundle));
    // Only schemas that dropped rules alone used are left out, and the build says which.
    const dropped = downConvert(bundle).losses['unused schema'];
    expect(dropped?.example).toBe('#/components/schemas/DomainRecordTargetName');
    expect(Object.keys(document30.components.schemas)).toEqual(Object.keys(bundle.components.schemas).filter((n) => n !== 'DomainRecordTargetName'));
    expect(dropped.count).toBe(1);
  });

  it('keeps nullability and constants in their 3.0 forms', () => {
    const found = [...schemas(document30)];
    expect(found.length).toBeGreaterThan(500);
    for (const [where, schema] of found) {
      expect(Array.isArray(schema.type), `${where}: type array`).toBe(false);
      expect(schema.type, `${where}: type null`).not.toBe('null');
      expect('const' in schema, `${where}: const`).toBe(false);
      expect('if' in schema || 'dependentSchemas' in schema || 'unevaluatedProperties' in schema, `${where}: a 2020-12 keyword`).toBe(false);
    }
    const { properties } = document30.components.schemas.Volume;
    expect(properties.compute_id).toMatchObject({ type: 'integer', nullable: true });
    const { status } = document30.components.schemas.Image.properties;
    expect(status).toMatchObject({ nullable: true, type: 'string', enum: ['creating', 'pending_upload', 'available', null] });
  });

  it('says in 3.0 terms what 3.0 linters and validators need: nullable beside a type, named schemas or null, forbidden names', () => {
    for (const [where, schema] of [...schemas(document30)]) {
      if (schema.nullable === true) expect(schema.type, `${where}: nullable without type`).toBeTypeOf('string');
      if (schema.nullable === true && schema.enum) expect(schema.enum, `${where}: a nullable enum without null`).toContain(null);
    }
    // A nullable reference: the named schema, or null.
    const { protocol } = document30.components.schemas.BalancerConfigSettings.properties;
    expect(protocol.anyOf).toEqual([{ $ref: '#/components/schemas/BalancerConfigProtocol' }, { type: 'string', nullable: true, enum: [null] }]);
    // A field that may only be null takes the type the property has elsewhere.
    expect(document30.components.schemas.ComputeCloneToNewRequest.properties.compute_id).toMatchObject({ type: 'integer', nullable: true, enum: [null] });
    // propertyNames' forbidden names become "not any of these required": a group of bucket
    // objects is told apart from an object, and secrets stay refused.
    expect(document30.components.schemas.BucketObjectPrefix.not.anyOf.map((b) => b.required[0])).toEqual(['etag', 'last_modified', 'owner', 'size']);
    expect(document30.components.schemas.Balancer.not.anyOf.map((b) => b.required[0])).toEqual(['ssl_cert', 'ssl_key']);
    expect(document30.components.schemas.ComputeInstance.not).toEqual({ required: ['root_pass'], properties: { root_pass: {} } });
  });

  it('lists every kind of loss in DECISIONS.md section 16, with what it meant', () => {
    const { losses } = downConvert(bundle);
    expect(Object.keys(losses).length).toBeGreaterThan(3);
    const decisions = readFileSync(path.join(specDir, 'DECISIONS.md'), 'utf8');
    const section = decisions.slice(decisions.indexOf('## 16.'));
    for (const keyword of Object.keys(losses)) {
      expect(LOSS_MEANING, keyword).toHaveProperty(keyword);
      expect(section, `DECISIONS.md section 16 names ${keyword}`).toContain(`\`${keyword}\``);
    }
  });
});
