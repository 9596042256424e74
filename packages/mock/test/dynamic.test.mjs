// Dynamic mode answers with generated data that validates against the response schemas, with only
// the fields they declare. Operations that share a response schema share a generator, so answers
// are sampled per schema. Schemas with rules that relate fields (if/then, not, oneOf, contains...),
// where Prism's generator alone breaks about one object in two, get 100 answers, or 40 for a list
// (each holds several objects, so its item schema is checked well over a hundred times); the
// others, whose keywords the generator follows by construction, 10. Prism generates 20 to 100
// answers a second on this machine, so this is most of the package's test time.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@cloudapi/spec/walk';
import { pointerGet } from '@cloudapi/spec/schema-views';
import { startMock } from '../src/index.mjs';
import { bundle, requestFor, send, successOf, views } from './support/spec.mjs';

const CROSS_FIELD = ['if', 'then', 'else', 'not', 'oneOf', 'anyOf', 'contains', 'maxContains', 'minContains', 'dependentRequired', 'dependentSchemas', 'propertyNames'];
const PER_CROSS_FIELD_SCHEMA = 100;
const PER_CROSS_FIELD_LIST = 40;
const PER_OTHER_SCHEMA = 10;

function hasCrossFieldRule(schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  if (typeof schema.$ref === 'string') return hasCrossFieldRule(pointerGet(bundle, schema.$ref), seen);
  return CROSS_FIELD.some((k) => k in schema) || Object.values(schema).some((v) => hasCrossFieldRule(v, seen));
}

/** Whether a schema is a page of items: it declares an array `data`, itself or through $ref/allOf. */
function listsData(schema) {
  if (!schema || typeof schema !== 'object') return false;
  if (typeof schema.$ref === 'string') return listsData(pointerGet(bundle, schema.$ref));
  return schema.properties?.data?.type === 'array' || (schema.allOf ?? []).some(listsData);
}

/** Operations grouped by the schema of their success response, with how many answers to check. */
function samplingPlan() {
  const groups = new Map();
  for (const op of operations(bundle)) {
    const { schemaPointer } = successOf(op);
    if (!schemaPointer) continue;
    const schema = pointerGet(bundle, schemaPointer);
    const key = schema.$ref ?? schemaPointer;
    const isList = listsData(schema);
    if (!groups.has(key)) groups.set(key, { schema: key, ops: [], answers: hasCrossFieldRule(schema) ? (isList ? PER_CROSS_FIELD_LIST : PER_CROSS_FIELD_SCHEMA) : PER_OTHER_SCHEMA });
    groups.get(key).ops.push(op);
  }
  return [...groups.values()];
}

async function pool(items, size, work) {
  let next = 0;
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

let mock;
beforeAll(async () => { mock = await startMock({ port: 0, dynamic: true, watch: false }); }, 60_000);
afterAll(async () => { await mock?.stop(); });

describe('dynamic answers', () => {
  const plan = samplingPlan();

  it('samples every operation, and a hundred answers or more for each schema with cross-field rules', () => {
    expect(plan.flatMap((g) => g.ops).length).toBe([...operations(bundle)].length);
    expect(plan.filter((g) => g.answers === PER_CROSS_FIELD_SCHEMA).length).toBeGreaterThan(5);
    expect(plan.filter((g) => g.answers === PER_CROSS_FIELD_LIST).length).toBeGreaterThan(3);
  });

  it('validate against their response schema and carry only declared fields', async () => {
    const requests = plan.flatMap((group) => Array.from({ length: group.answers }, (_, i) => group.ops[i % group.ops.length]));
    const failures = new Map();
    let checked = 0;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    await pool(requests, 8, async (op) => {
      const { status, schemaPointer } = successOf(op);
      const response = await send(agent, requestFor(op, mock.baseUrl));
      const { text } = response;
      const where = `${op.method.toUpperCase()} ${op.path}`;
      if (response.status !== status) { failures.set(where, `answered ${response.status}: ${text.slice(0, 300)}`); return; }
      const body = JSON.parse(text);
      const invalid = views.validate('response', schemaPointer, body).errors.map((e) => e.message);
      const undeclared = views.undeclared('response', schemaPointer, body);
      if (invalid.length || undeclared.length) failures.set(where, `${[...invalid, ...undeclared.map((p) => `undeclared ${p}`)].slice(0, 5).join('; ')} in ${text.slice(0, 300)}`);
      checked++;
    });
    agent.destroy();
    expect(Object.fromEntries(failures)).toEqual({});
    expect(checked).toBe(requests.length);
  }, 300_000);

  it('differ from one answer to the next unless seeded, and are repeatable with a seed', async () => {
    const domain = [...operations(bundle)].find((op) => op.operation.operationId === 'listDomains');
    const { url, init } = requestFor(domain, mock.baseUrl);
    const { schemaPointer } = successOf(domain);
    const texts = await Promise.all([1, 2, 3].map(async () => (await fetch(url, init)).text()));
    expect(new Set(texts).size).toBeGreaterThan(1);

    const seeded = await startMock({ port: 0, dynamic: true, seed: 42, watch: false });
    try {
      const seededUrl = url.replace(mock.baseUrl, seeded.baseUrl);
      const [first, second] = await Promise.all([1, 2].map(async () => (await fetch(seededUrl, init)).json()));
      expect(second).toEqual(first);
      expect(views.validate('response', schemaPointer, first).errors).toEqual([]);
      const perRequest = await Promise.all(['a', 'a', 'b'].map(async (seed) => (await fetch(url, { ...init, headers: { ...init.headers, prefer: `seed=${seed}` } })).json()));
      expect(perRequest[1]).toEqual(perRequest[0]);
      expect(perRequest[2]).not.toEqual(perRequest[0]);
    } finally {
      await seeded.stop();
    }
  }, 90_000);
});
