// Property test of X-Filter on this project's engine (sqlite or postgres): generated filters over
// volumes whose labels and tags hold quotes, SQL keywords and comments, and unicode, and hostile
// filters (huge and non-finite numbers, __proto__ and constructor keys, deep nesting, long
// arrays, broken JSON). The server must never answer 5xx nor show SQL text, and a 200 must hold
// exactly the rows that this file's own evaluator of the language (written apart from
// @cloudapi/spec/filters) says match, in the order asked.
import fc from 'fast-check';
import { encodeFilterHeader } from '@cloudapi/spec/filters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

const RUNS = 150;
const HOSTILE_TEXT = ["'", "''", '"', "o'reilly", "'; DROP TABLE volumes; --", '/* x */', '%', '_', '\\', 'SELECT * FROM taggings', 'OR 1=1', 'null', '__proto__', 'Ünïcödé', '数据库', '🙂', 'a\u200Bb', ''];
const LABELS = ["alpha'db", 'beta "web"', 'gamma; DROP TABLE volumes', 'delta/* c */', '数据库-1', 'emoji-🙂', 'OR 1=1', 'plain', 'Ünïcödé', '_%_', 'zeta\\path', 'alpha-2'];
const TAGS = ["it's", 'prod', 'select', '数据库', '🙂🙂🙂', 'a%b', '--x'];
const SQL_TEXT = /sqlite|syntax error|SQLSTATE|relation "|column "|no such (table|column)|near "|\bselect\b.*\bfrom\b/i;

type Volume = { id: number; label: string; tags: string[]; created: string; updated: string };
let t: TestServer;
let volumes: Volume[] = [];
const figures = { tried: 0, ok: 0, refused: 0, serverErrors: 0, wrongRows: 0 };

beforeAll(async () => {
  t = await startTestServer({ name: 'filter-property' });
  for (const [i, label] of LABELS.entries()) {
    const tags = TAGS.filter((_, j) => (i + j) % 3 === 0);
    const answer = await t.as('full').post('/volumes', { label, region: 'us-east', tags });
    expect(answer.status, answer.text).toBe(200);
  }
  volumes = (await t.as('full').get('/volumes')).body.data;
  expect(volumes).toHaveLength(LABELS.length);
});
afterAll(async () => {
  console.log(`X-Filter property test on ${t?.engine}: ${figures.tried} filters, ${figures.ok} answered 200, ${figures.refused} refused with 400, ${figures.serverErrors} 5xx, ${figures.wrongRows} wrong rows`);
  await t?.close();
});

// ---- an evaluator of the language, independent of the server's and the shared module's code
const codePoints = (a: string, b: string) => {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};
function holds(item: Volume, filter: Record<string, any>): boolean {
  return Object.keys(filter).every((key) => {
    const want = filter[key];
    if (key === '+order_by' || key === '+order') return true;
    if (key === '+and') return want.every((f: any) => holds(item, f));
    if (key === '+or') return want.some((f: any) => holds(item, f));
    const [op, value] = want !== null && typeof want === 'object' ? Object.entries(want)[0]! : ['eq', want];
    if (key === 'tags') {
      if (op === 'eq') return item.tags.includes(value as string);
      if (op === '+neq') return !item.tags.includes(value as string);
      return item.tags.some((tag) => tag.includes(value as string));
    }
    const actual = (item as any)[key];
    if (op === 'eq') return actual === value;
    if (op === '+neq') return actual !== value;
    return String(actual).includes(value as string);
  });
}
function expectedOrder(items: Volume[], filter: Record<string, any>): number[] {
  const by = filter['+order_by'];
  const sign = filter['+order'] === 'desc' ? -1 : 1;
  const sorted = [...items].sort((a, b) => {
    if (!by) return a.id - b.id;
    const x = (a as any)[by];
    const y = (b as any)[by];
    const c = typeof x === 'string' ? codePoints(x, y) : x - y;
    return sign * (c !== 0 ? c : a.id - b.id);
  });
  return sorted.map((v) => v.id);
}

// ---- filters
const text = fc.oneof(fc.constantFrom(...HOSTILE_TEXT, ...LABELS, ...TAGS), fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 }));
const condition = fc.oneof(
  text.map((v) => ({ label: v })),
  text.map((v) => ({ label: { '+contains': v } })),
  text.map((v) => ({ label: { '+neq': v } })),
  text.map((v) => ({ tags: v })),
  text.map((v) => ({ tags: { '+contains': v } })),
  text.map((v) => ({ tags: { '+neq': v } })),
);
// Nesting within the limit of 4 levels of +and/+or.
const clauseAt = (depth: number): fc.Arbitrary<Record<string, unknown>> => {
  const leaves = [condition, fc.tuple(condition, condition).map(([a, b]) => ({ ...a, ...b }))];
  if (depth === 0) return fc.oneof(...leaves);
  const inner = clauseAt(depth - 1);
  return fc.oneof(
    ...leaves,
    fc.array(inner, { minLength: 1, maxLength: 3 }).map((items) => ({ '+and': items })),
    fc.array(inner, { minLength: 1, maxLength: 3 }).map((items) => ({ '+or': items })),
  );
};
const clause = clauseAt(4);
const ordering = fc.option(fc.record({ '+order_by': fc.constantFrom('label', 'id', 'created', 'updated'), '+order': fc.constantFrom('asc', 'desc') }, { requiredKeys: ['+order_by'] }), { nil: undefined });
const validFilter = fc.tuple(clause, ordering).map(([c, o]) => ({ ...c, ...(o ?? {}) }));

const nested = (depth: number) => { let f: any = { label: 'plain' }; for (let i = 0; i < depth; i++) f = { '+and': [f] }; return f; };
const hostileHeader = fc.oneof(
  fc.constantFrom(
    '{"label":', 'null', '[]', '"label"', '{"label": NaN}', '{"tags": {"+gt": 1e999}}', '{"label": {"+contains": 1e400}}',
    '{"__proto__": {"label": "plain"}}', '{"constructor": {"prototype": 1}}', '{"label": {"__proto__": "x"}}',
    '{"+order_by": "label; DROP TABLE volumes"}', '{"+order_by": "__proto__"}', '{"+order": "desc"}', '{"label": "\\u0000"}', '{"label": "\\ud800"}',
    '{"label": {"+contains": "a", "+neq": "b"}}', '{"+or": []}', '{"+and": [1, 2]}', '{"label": {"+in": ["a"]}}',
  ),
  fc.integer({ min: 1, max: 60 }).map((d) => JSON.stringify(nested(d))),
  fc.integer({ min: 1, max: 400 }).map((n) => JSON.stringify({ '+or': Array.from({ length: n }, (_, i) => ({ label: `l${i}` })) })),
  fc.dictionary(fc.constantFrom('label', 'tags', 'size', 'id', '__proto__', 'constructor', '+and', '+gt', "label' OR '1'='1"), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }).map((f) => encodeFilterHeader(f)),
  fc.tuple(fc.constantFrom('label', 'tags'), fc.constantFrom('+gt', '+lt', '+contains', '+neq'), fc.constantFrom(1e308, -1e308, 2 ** 64, -0, Number.MAX_SAFE_INTEGER + 2)).map(([f, op, n]) => `{"${f}": {"${op}": ${n}}}`),
);

async function send(header: string) {
  figures.tried += 1;
  const answer = await t.as('full').get('/volumes', { headers: { 'x-filter': header }, query: { page_size: 100 } });
  if (answer.status >= 500) figures.serverErrors += 1;
  expect(answer.status, `${header} → ${answer.text}`).toBeLessThan(500);
  expect(answer.text).not.toMatch(SQL_TEXT);
  return answer;
}

describe(`X-Filter properties`, () => {
  it('a valid filter answers exactly the rows the evaluator picks, in the order asked', async () => {
    await fc.assert(fc.asyncProperty(validFilter, async (filter) => {
      const answer = await send(encodeFilterHeader(filter));
      expect(answer.status, answer.text).toBe(200);
      figures.ok += 1;
      const want = expectedOrder(volumes.filter((v) => holds(v, filter)), filter);
      const got = answer.body.data.map((v: Volume) => v.id);
      if (JSON.stringify(got) !== JSON.stringify(want) || answer.body.results !== want.length) figures.wrongRows += 1;
      expect(got).toEqual(want);
      expect(answer.body.results).toBe(want.length);
    }), { numRuns: RUNS, seed: 2811 });
  });

  it('a hostile filter is answered 200 with matching rows or 400 naming X-Filter, never 5xx', async () => {
    await fc.assert(fc.asyncProperty(hostileHeader, async (header) => {
      const answer = await send(header);
      if (answer.status === 400) {
        figures.refused += 1;
        expect(answer.body.errors[0].field).toBe('X-Filter');
        return;
      }
      expect(answer.status, answer.text).toBe(200);
      figures.ok += 1;
      const filter = JSON.parse(header);
      const wrong = answer.body.data.filter((v: Volume) => !holds(v, filter));
      figures.wrongRows += wrong.length;
      expect(wrong).toEqual([]);
    }), { numRuns: RUNS, seed: 2812 });
    expect(figures.serverErrors).toBe(0);
  });
});
