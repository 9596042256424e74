// The bundle through seven mainstream TypeScript generators (pinned in package.json, run offline):
// each must generate, cover every operation, and its output must compile (strict); and for the
// three whose output the check can read slot by slot (openapi-typescript, @hey-api/openapi-ts,
// oazapfts) no request body, response or parameter may come out as `any` or `unknown` where its
// schema says more. Small documents prove each part can fail: shapes that used to collapse, a
// component schema whose property names crash typed-openapi (the old X-Filter), and a nullable
// enum whose zod code does not compile.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '@cloudapi/spec/bundle';
import { PROBED } from '../src/check.mjs';
import { GENERATORS } from '../src/generate.mjs';
import { checkGenerators, startCheckers, summary } from '../src/pipeline.mjs';

const bundle = loadBundle();
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const names = Object.keys(GENERATORS);
const probed = PROBED;
const dirs = [];
// Inside the package, so the generated code resolves its runtime imports (zod, @oazapfts/runtime).
const scratch = (prefix) => { const dir = mkdtempSync(path.join(packageDir, `.generated-${prefix}-`)); dirs.push(dir); return dir; };
// One pair of checker threads and generators' hosts for every document of the file: each thread
// loads TypeScript and the standard library once, each host a generator's library.
const pool = startCheckers();
afterAll(async () => {
  await pool.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const string = { type: 'string', description: 'A value.' };
const thing = { type: 'object', required: ['name'], properties: { name: string } };
/** A document of one list operation answering `schema`, with `schemas` as its components. */
const listOf = (schemas, answer) => ({
  openapi: '3.1.0',
  jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
  info: { title: 'A control document', version: '1.0.0' },
  paths: { '/things': { get: { operationId: 'listThings', responses: { 200: { description: 'A page.', content: { 'application/json': { schema: answer } } } } } } },
  components: { schemas },
});

describe('the bundle through every generator', () => {
  let results;
  const started = Date.now();
  beforeAll(async () => {
    results = await checkGenerators(bundle, scratch('bundle'), { checkers: pool.checkers, hosts: pool.hosts });
    console.log(`generators on the bundle (${Math.round((Date.now() - started) / 1000)} s):\n${summary(results).join('\n')}`);
  }, 600_000);

  it.each(names)('%s generates, for every operation, TypeScript that compiles (strict)', (name) => {
    const result = results[name];
    expect(result.error, `${name} ${result.version} did not generate`).toBeUndefined();
    expect(result.errors, `${name} ${result.version}: compile errors in its output`).toEqual([]);
    // Every operation has its name in the output (a generator that skipped some would pass the compiler).
    const text = result.files.map((file) => readFileSync(file, 'utf8')).join('\n').toLowerCase();
    const ids = Object.values(bundle.paths).flatMap((item) => Object.values(item)).map((op) => op?.operationId).filter(Boolean);
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((id) => !text.includes(id.toLowerCase())), `${name}: operations missing from its output`).toEqual([]);
  });

  it.each(probed)('%s keeps a precise type for every request body, response and parameter', (name) => {
    const { checked, findings, missing, broken } = results[name];
    expect(broken, 'probe lines that do not compile').toEqual([]);
    expect(missing, 'spots with no generated type').toEqual([]);
    // Every operation's body, answers and parameters were located.
    expect(checked).toBeGreaterThan(900);
    expect(findings).toEqual([]);
  });
});

describe('the check (it can fail)', () => {
  const collapsing = {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { title: 'Shapes that used to collapse', version: '1.0.0' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          responses: { 200: { description: 'A page.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingList' } } } } },
        },
        post: {
          operationId: 'createThing',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingRequest' } } } },
          responses: { 200: { description: 'The thing.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
        },
      },
    },
    components: {
      schemas: {
        // Formats of one type with no type in their branches.
        Address: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
        Fields: { type: 'object', properties: { name: string, kind: { type: 'string', enum: ['a', 'b'] } } },
        // A member made only of a condition, and one made only of overrides.
        ThingRequest: {
          allOf: [
            { $ref: '#/components/schemas/Fields' },
            { if: { required: ['kind'], properties: { kind: { const: 'a' } } }, then: { required: ['name'] } },
            { properties: { name: { description: 'Overridden.', default: 'x' } } },
          ],
          unevaluatedProperties: false,
        },
        Thing: { type: 'object', required: ['address'], properties: { address: { $ref: '#/components/schemas/Address' } } },
        // An envelope with an untyped `data`, narrowed by the list.
        Envelope: { type: 'object', required: ['data', 'page'], properties: { data: { description: 'Items.' }, page: { type: 'integer' } } },
        ThingList: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } }] },
      },
    },
  };
  // The X-Filter schemas as they were in components.schemas: typed-openapi writes `+and` unquoted.
  const plusNames = listOf({
    Filter: { type: 'object', properties: { '+and': { type: 'array', items: { $ref: '#/components/schemas/Filter' } }, label: string } },
    Thing: thing,
  }, { $ref: '#/components/schemas/Thing' });
  // `null` inside the enum of a nullable string (DECISIONS.md section 15): zod code that does not compile.
  const nullInEnum = listOf({ Thing: { ...thing, properties: { ...thing.properties, status: { type: ['string', 'null'], enum: ['on', 'off', null] } } } }, { $ref: '#/components/schemas/Thing' });

  let collapsed;
  let crashed;
  let uncompiled;
  beforeAll(async () => {
    [collapsed, crashed, uncompiled] = await Promise.all([
      checkGenerators(collapsing, scratch('control'), { names: probed, parallel: 1, checkers: pool.checkers.slice(0, 1), hosts: pool.hosts.slice(0, 1) }),
      checkGenerators(plusNames, scratch('plus-names'), { names: ['typed-openapi'], parallel: 1, checkers: pool.checkers.slice(1), hosts: pool.hosts.slice(1) }),
      checkGenerators(nullInEnum, scratch('null-enum'), { names: ['openapi-zod-client'], parallel: 1, checkers: pool.checkers.slice(1), hosts: pool.hosts.slice(1) }),
    ]);
  }, 600_000);

  it.each(probed)('%s: the collapsed shapes are reported', (name) => {
    const { findings, broken } = collapsed[name];
    expect(broken).toEqual([]);
    console.log(`${name} on the control document: ${findings.join('; ')}`);
    expect(findings.some((f) => f.startsWith('createThing response 200.address'))).toBe(true);
  });

  it('reports the lost item type of a list and the lost body of a conditional allOf where they collapse', () => {
    const all = Object.entries(collapsed).flatMap(([name, { findings }]) => findings.map((f) => `${name}: ${f}`));
    expect(all.some((f) => f.startsWith('oazapfts: listThings response 200.data'))).toBe(true);
    expect(all.some((f) => f.includes('createThing request body'))).toBe(true);
  });

  it('reports a generator that crashes on the document (typed-openapi on property names such as +and)', () => {
    expect(crashed['typed-openapi'].error).toMatch(/typed-openapi failed: .*Property or signature expected/s);
    expect(summary(crashed)[0]).toMatch(/^typed-openapi 2\.2\.7: FAILED to generate/);
  });

  it('reports output that does not compile (openapi-zod-client on null in a nullable enum)', () => {
    const { error, errors } = uncompiled['openapi-zod-client'];
    expect(error).toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
    expect(summary(uncompiled)[0]).toMatch(/^openapi-zod-client 1\.18\.3: \d+ compile error\(s\), first: openapi-zod-client\.ts:\d+:\d+ /);
  });
});
