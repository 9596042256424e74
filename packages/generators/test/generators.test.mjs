// The bundle through three mainstream TypeScript generators (openapi-typescript,
// @hey-api/openapi-ts, oazapfts; pinned in package.json, run offline): no request body, response
// or parameter may come out as `any` or `unknown` where its schema says more. A small document
// with the shapes that used to collapse (a format union without types, an allOf member made
// only of a condition or of overrides, an untyped envelope field) proves the check finds them.
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '@cloudapi/spec/bundle';
import { checkOutputs } from '../src/check.mjs';
import { GENERATORS, generateAll } from '../src/generate.mjs';

const bundle = loadBundle();
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const names = Object.keys(GENERATORS);
const dirs = [];
// Inside the package, so the generated code resolves its runtime imports (@oazapfts/runtime).
const scratch = (prefix) => { const dir = mkdtempSync(path.join(packageDir, `.generated-${prefix}-`)); dirs.push(dir); return dir; };
afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

async function run(document, prefix) {
  const dir = scratch(prefix);
  const generated = await generateAll(document, dir);
  const files = Object.fromEntries(Object.entries(generated).map(([name, { file }]) => [name, file]));
  return { generated, results: checkOutputs(document, files, dir) };
}

describe('the bundle through every generator', () => {
  let outcome;
  beforeAll(async () => { outcome = await run(bundle, 'bundle'); }, 300_000);

  it.each(names)('%s keeps a precise type for every request body, response and parameter', (name) => {
    const { checked, findings, missing, broken } = outcome.results[name];
    console.log(`${name}: generated in ${outcome.generated[name].ms} ms, ${checked} bodies, responses and parameters checked, ${findings.length} lost`);
    expect(broken, 'probe lines that do not compile').toEqual([]);
    expect(missing, 'spots with no generated type').toEqual([]);
    // Every operation's body, answers and parameters were located.
    expect(checked).toBeGreaterThan(900);
    expect(findings).toEqual([]);
  });
});

describe('the check (it can fail)', () => {
  const string = { type: 'string', description: 'A value.' };
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
  let outcome;
  beforeAll(async () => { outcome = await run(collapsing, 'control'); }, 300_000);

  it.each(names)('%s: the collapsed shapes are reported', (name) => {
    const { findings, broken } = outcome.results[name];
    expect(broken).toEqual([]);
    console.log(`${name} on the control document: ${findings.join('; ')}`);
    expect(findings.some((f) => f.startsWith('createThing response 200.address'))).toBe(true);
  });

  it('reports the lost item type of a list and the lost body of a conditional allOf where they collapse', () => {
    const all = Object.entries(outcome.results).flatMap(([name, { findings }]) => findings.map((f) => `${name}: ${f}`));
    expect(all.some((f) => f.startsWith('oazapfts: listThings response 200.data'))).toBe(true);
    expect(all.some((f) => f.includes('createThing request body'))).toBe(true);
  });
});
