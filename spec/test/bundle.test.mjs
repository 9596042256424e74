// The bundle is a valid OpenAPI 3.1 document, follows the root conventions of DESIGN.md, and
// every example in it validates against its schema with OpenAPI's readOnly/writeOnly meaning.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createSchemaViews } from '../lib/schema-views.mjs';
import { allExamples } from '../lib/walk.mjs';
import { loadBundle, specDir } from './helpers.mjs';

const bundle = loadBundle();

async function metaSchemaErrors(document) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  return result.valid ? [] : result.errors;
}

function invalidExamples(document) {
  const views = createSchemaViews(document);
  const failures = [];
  let checked = 0;
  for (const example of allExamples(document)) {
    checked++;
    const result = views.validate(example.view, example.schemaPointer, example.value);
    if (!result.valid) failures.push(`${example.where}: ${result.errors.map((e) => e.message).join('; ')}`);
    // Open response schemas accept any field, so a misspelt one would pass validation.
    const extra = views.undeclared(example.view, example.schemaPointer, example.value);
    if (extra.length) failures.push(`${example.where}: fields the schema does not declare: ${extra.join(', ')}`);
  }
  return { checked, failures };
}

describe('the bundle', () => {
  it('has the same content in its YAML and JSON forms', () => {
    const yamlForm = parse(readFileSync(path.join(specDir, 'dist', 'openapi.yaml'), 'utf8'));
    expect(yamlForm).toEqual(bundle);
  });

  it('validates against the official OpenAPI 3.1 schema', async () => {
    expect(await metaSchemaErrors(bundle)).toEqual([]);
  });

  it('is rejected by the OpenAPI 3.1 schema when broken (the check can fail)', async () => {
    const broken = structuredClone(bundle);
    const [firstPath] = Object.values(broken.paths);
    delete Object.values(firstPath).find((op) => op.responses).responses['200'].description;
    broken.info.version = 4115;
    expect((await metaSchemaErrors(broken)).length).toBeGreaterThan(0);
  });

  it('follows the root conventions: 3.1.0, 2020-12 dialect, release 4.115.0, a /v4 server', () => {
    expect(bundle.openapi).toBe('3.1.0');
    expect(bundle.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(bundle.info.version).toBe('4.115.0');
    expect(bundle.servers.length).toBeGreaterThan(0);
    for (const server of bundle.servers) expect(server.url).toMatch(/\/v4$/);
  });

  it('defines both security schemes and all fourteen scopes', () => {
    const { personalAccessToken, oauth } = bundle.components.securitySchemes;
    expect(personalAccessToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(oauth.type).toBe('oauth2');
    const scopes = Object.values(oauth.flows).flatMap((flow) => Object.keys(flow.scopes));
    const areas = ['account', 'balancers', 'computes', 'domains', 'images', 'object_storage', 'volumes'];
    expect(new Set(scopes)).toEqual(new Set(areas.flatMap((a) => [`${a}:read_only`, `${a}:read_write`])));
  });

  it('has one tag per area, each described', () => {
    const names = bundle.tags.map((t) => t.name);
    expect(names).toEqual(['Balancers', 'Compute', 'Domains', 'Images', 'Managed', 'Object Storage', 'Regions', 'Support', 'Tags', 'Volumes']);
    for (const tag of bundle.tags) expect(tag.description.length).toBeGreaterThan(20);
  });

  it('shares the pagination parameters, the envelope, the error body and the empty body', () => {
    const { parameters, schemas, responses } = bundle.components;
    expect(parameters.Page).toMatchObject({ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } });
    expect(parameters.PageSize).toMatchObject({ name: 'page_size', in: 'query', schema: { type: 'integer', minimum: 25, maximum: 100, default: 100 } });
    expect(schemas.PaginationEnvelope.required).toEqual(['page', 'pages', 'results']);
    // Each list adds its own typed `data`; the envelope leaves it out (an untyped one became `any`).
    expect(schemas.PaginationEnvelope.properties).not.toHaveProperty('data');
    const lists = Object.entries(schemas).filter(([, s]) => (s.allOf || []).some((m) => m.$ref === '#/components/schemas/PaginationEnvelope'));
    expect(lists.length).toBeGreaterThan(20);
    for (const [name, list] of lists) {
      const own = list.allOf.find((m) => m.properties && m.properties.data);
      expect(own, name).toBeDefined();
      expect(own.required, name).toContain('data');
      expect(own.properties.data.type, name).toBe('array');
    }
    expect(schemas.ErrorResponse.required).toEqual(['errors']);
    expect(schemas.ErrorDetail.properties).toHaveProperty('field');
    expect(schemas.ErrorDetail.properties).toHaveProperty('reason');
    expect(schemas.EmptyObject).toMatchObject({ type: 'object', maxProperties: 0 });
    for (const name of ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'TooManyRequests']) {
      expect(responses[name].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    }
    expect(responses.TooManyRequests.headers).toHaveProperty('Retry-After');
  });

  it('has examples that all validate against their schemas', () => {
    const { checked, failures } = invalidExamples(bundle);
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it('has only obviously fake private keys in its examples, which secret scanners skip', () => {
    // Scanners match a PEM private key armor around a body of 64 characters or more.
    const examples = JSON.stringify([...allExamples(bundle)].map((e) => e.value));
    const keys = examples.match(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g) || [];
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const body = key.replace(/-----(BEGIN|END) [A-Z ]*PRIVATE KEY-----/g, '').replace(/\\n/g, '').trim();
      expect(body, key).toMatch(/EXAMPLE/);
      expect(body.length, key).toBeLessThan(64);
    }
  });

  it('reports a response example carrying a field its open schema does not declare', () => {
    const broken = structuredClone(bundle);
    const name = Object.keys(broken.components.examples).find((n) => n === 'Volume');
    broken.components.examples[name].value.filesytem_path = '/dev/sdb'; // misspelt
    const { failures } = invalidExamples(broken);
    expect(failures.some((f) => f.includes('response 200') && f.includes('fields the schema does not declare: /filesytem_path'))).toBe(true);
  });

  it('reports an example that breaks its schema, an unknown field, a read-only field in a request and a write-only field in a response', () => {
    const broken = structuredClone(bundle);
    const { examples, schemas } = broken.components;
    const first = (prefix) => Object.keys(examples).find((name) => name.startsWith(prefix));
    examples[first('VolumeList')].value.page = 'one'; // wrong type
    examples[first('VolumeCreate')].value.id = 99; // not a create field
    schemas.VolumeCreateRequest.properties.size.readOnly = true; // requests must not carry it now
    schemas.Volume.properties.label.writeOnly = true; // responses must not carry it now
    const { failures } = invalidExamples(broken);
    expect(failures.some((f) => f.includes('/page must be integer'))).toBe(true);
    expect(failures.some((f) => f.includes('request body') && f.includes('additional properties "id"'))).toBe(true);
    expect(failures.some((f) => f.includes('request body') && f.includes('/size boolean schema is false'))).toBe(true);
    expect(failures.some((f) => f.includes('response 200') && f.includes('/label boolean schema is false'))).toBe(true);
  });
});
