// The breaking-change engine against oasdiff's catalogue: spec/README.md maps each of oasdiff's
// checks to our code (or says why it does not apply), and every applicable row has a case in
// breaking-cases.mjs. Each case changes a copy of the bundle; the comparison must give the row's
// code at the row's level, no finding above that level (no false alarm), and point at the
// case's source line. The table and the cases cannot drift: a row without a case, a case
// without a row, a code the engine has but the README does not list, or a reason "does not
// apply" that the bundle no longer bears out, fails here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { compareDocuments } from '../lib/breaking.mjs';
import { CODES, LEVEL_RANK } from '../lib/breaking/codes.mjs';
import { createSourceIndex } from '../lib/sources.mjs';
import { walkSchema } from '../lib/schema-walk.mjs';
import { bodiesOf, deref, operations } from '../lib/walk.mjs';
import { CASES, EXTRA_CASES } from './breaking-cases.mjs';
import { loadBundle, specDir } from './helpers.mjs';

const OASDIFF_LEVEL = { error: 'breaking', warn: 'warning', info: 'info' };
const SECTION = "## Breaking changes: oasdiff's checks and ours";

/** The README's two tables: oasdiff's checks, and what ours reports beyond them. */
function readTables() {
  const text = readFileSync(path.join(specDir, 'README.md'), 'utf8');
  const start = text.indexOf(SECTION);
  if (start < 0) throw new Error(`spec/README.md has no section "${SECTION}"`);
  const section = text.slice(start, text.indexOf('\n## ', start + SECTION.length) >>> 0);
  const cells = (line) => line.split('|').slice(1, -1).map((c) => c.trim());
  const code = (cell) => cell.replace(/^`|`$/g, '');
  const checks = new Map();
  const extras = new Map();
  for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const row = cells(line);
    if (row.length === 5) {
      const [id, oasdiffLevel, ours, level, note] = row;
      checks.set(code(id), { oasdiffLevel: OASDIFF_LEVEL[oasdiffLevel], code: ours === '—' ? null : code(ours), level: level === '—' ? null : level, note, reason: /^does not apply: (\S+)$/.exec(note)?.[1] });
    } else if (row.length === 3) {
      extras.set(code(row[0]), { code: code(row[0]), level: row[1] });
    }
  }
  return { checks, extras, section };
}

const { checks, extras, section } = readTables();
const bundle = loadBundle();
const sources = createSourceIndex(specDir);

// ---------------------------------------------------------------------------------------------
// Where a case expects its finding: the line of the deepest node of a YAML path that exists.

const parsed = new Map();
function expectedLine([file, ...yamlPath]) {
  if (!parsed.has(file)) {
    const lines = new LineCounter();
    parsed.set(file, { doc: parseDocument(readFileSync(path.join(specDir, file), 'utf8'), { lineCounter: lines }), lines });
  }
  const { doc, lines } = parsed.get(file);
  let node = doc.contents;
  let at = node;
  for (const part of yamlPath) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(part));
      if (!pair) break;
      [node, at] = [pair.value, pair.key];
    } else if (isSeq(node) && node.items[Number(part)] !== undefined) {
      node = node.items[Number(part)];
      at = node;
    } else break;
  }
  return `${file}:${lines.linePos(at.range[0]).line}`;
}

const keepPaths = (doc, keys) => ({ ...doc, paths: Object.fromEntries(keys.filter((k) => doc.paths?.[k]).map((k) => [k, doc.paths[k]])) });

function run(c) {
  const before = keepPaths(c.before ? c.before(bundle) : bundle, c.paths);
  const after = keepPaths(c.after ? c.after(bundle) : bundle, c.paths);
  return compareDocuments(before, after, { all: true }).findings;
}

function expectCase(c, { code, level }) {
  const findings = run(c);
  const summary = findings.map((f) => `${f.level}:${f.code} ${f.operation} ${f.message}`).join('\n  ');
  const hits = findings.filter((f) => f.code === code);
  expect(hits.length, `a ${code} finding; the comparison gave:\n  ${summary}`).toBeGreaterThan(0);
  expect(hits[0].level).toBe(level);
  const top = findings.reduce((max, f) => (LEVEL_RANK[f.level] > LEVEL_RANK[max] ? f.level : max), 'info');
  expect(top, `nothing above ${level}; the comparison gave:\n  ${summary}`).toBe(level);
  const where = hits.map((f) => {
    const at = sources.locate(f.pointer);
    return `${at.file}:${at.line}`;
  });
  expect(where).toContain(expectedLine(c.at));
}

// ---------------------------------------------------------------------------------------------

describe('the oasdiff crosswalk in spec/README.md', () => {
  const applicable = [...checks].filter(([, row]) => row.code).map(([id]) => id).sort();

  it('lists 556 checks, each applying with a code of ours or not applying for a named reason', () => {
    expect(checks.size).toBe(556);
    for (const [id, row] of checks) {
      expect(row.oasdiffLevel, `${id}: oasdiff's level`).toBeTruthy();
      if (row.code) {
        expect(CODES[row.code], `${id}: ${row.code} is a code of lib/breaking/codes.mjs`).toBeTruthy();
        expect(row.level, `${id}: the level of ${row.code}`).toBe(CODES[row.code]);
        if (row.level !== row.oasdiffLevel) expect(row.note, `${id}: ours differs from oasdiff's level, so the row says why`).toMatch(/^ours: /);
        else expect(row.note, `${id}: same level as oasdiff, no note`).toBe('');
      } else expect(Object.keys(REASONS), `${id}: a known reason`).toContain(row.reason);
    }
  });

  it('gives the counts its rows add up to', () => {
    const rows = [...checks.values()];
    const count = (test) => rows.filter(test).length;
    const byLevel = (level) => count((r) => r.oasdiffLevel === level);
    const prose = section.replace(/\s+/g, ' ');
    expect(prose).toContain(`Of its **${checks.size}** checks (${byLevel('breaking')} at error, ${byLevel('warning')} at warn, ${byLevel('info')} at info)`);
    expect(prose).toContain(`**${count((r) => r.code)}** apply and **${count((r) => !r.code)}** do not; **${count((r) => r.code && r.level === r.oasdiffLevel)}** of the ${count((r) => r.code)} are found at oasdiff's level, and **${count((r) => r.code && r.level !== r.oasdiffLevel)}** at ours`);
  });

  it('has a case for every applicable row, and a row for every case', () => {
    const cased = CASES.map((c) => c.id);
    expect(cased.filter((id, i) => cased.indexOf(id) !== i), 'cases given twice').toEqual([]);
    expect(applicable.filter((id) => !cased.includes(id)), 'rows without a case').toEqual([]);
    expect(cased.filter((id) => !applicable.includes(id)), 'cases without an applicable row').toEqual([]);
    expect(EXTRA_CASES.map((c) => c.id).sort(), 'the codes beyond oasdiff and their cases').toEqual([...extras.keys()].sort());
  });

  it('documents every code of the engine (parameters and headers take the request and response forms)', () => {
    const documented = new Set([...[...checks.values()].map((r) => r.code).filter(Boolean), ...extras.keys()]);
    const base = (code) => code.replace(/^parameter-/, 'request-').replace(/^response-header-/, 'response-');
    const missing = Object.keys(CODES).filter((code) => !documented.has(code) && !(base(code) !== code && documented.has(base(code))));
    expect(missing, 'codes neither in the crosswalk nor in "beyond oasdiff"').toEqual([]);
    for (const [code, row] of extras) expect(row.level, code).toBe(CODES[code]);
  });

  it('gives each reason "does not apply" only while the bundle bears it out', () => {
    for (const [reason, holds] of Object.entries(REASONS)) expect(holds(bundle), `reason "${reason}" no longer holds: revisit its rows`).toBe(true);
  });
});

describe('each applicable oasdiff check, on a copy of the bundle', () => {
  it.each(CASES.map((c) => [c.id, c]))('%s', (id, c) => {
    const row = checks.get(id);
    expect(row?.code, `${id} is an applicable row of the README`).toBeTruthy();
    expectCase(c, row);
  });
});

describe('what ours reports beyond oasdiff', () => {
  it.each(EXTRA_CASES.map((c) => [c.id, c]))('%s', (id, c) => {
    expectCase(c, extras.get(id) ?? { code: id, level: 'missing from the README' });
  });

  it('finds nothing between the bundle and itself, and between two parses of it', () => {
    expect(compareDocuments(bundle, bundle, { all: true })).toEqual({ findings: [], added: [] });
    expect(compareDocuments(bundle, loadBundle(), { all: true })).toEqual({ findings: [], added: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// Why a check does not apply, as a fact about the bundle.

function* allObjects(node) {
  if (Array.isArray(node)) for (const item of node) yield* allObjects(item);
  else if (node && typeof node === 'object') {
    yield node;
    for (const value of Object.values(node)) yield* allObjects(value);
  }
}
const schemasOfBodies = (doc, kind) => [...operations(doc)].flatMap((op) => bodiesOf(doc, op).filter((b) => b.kind === kind).map((b) => b.media.schema));
const anySchemaHas = (doc, roots, test) => roots.some((root) => {
  let found = false;
  walkSchema(root, (schema) => { if (test(schema)) found = true; }, { resolve: (n) => deref(doc, n)[0] });
  return found;
});

const REASONS = {
  extension: (doc) => ![...allObjects(doc)].some((o) => ['x-sunset', 'x-stability-level', 'x-extensible-enum'].some((key) => key in o)),
  discriminator: (doc) => ![...allObjects(doc.components?.schemas ?? {})].some((o) => o.discriminator && typeof o.discriminator === 'object'),
  'item-schema': (doc) => doc.openapi.startsWith('3.1.'),
  webhooks: (doc) => !doc.webhooks,
  'global-security': (doc) => !doc.security && [...operations(doc)].every((op) => Array.isArray(op.operation.security)),
  version: () => existsSync(path.join(specDir, '..', 'scripts', 'release-check.mjs')),
  'request-read-only': (doc) => !anySchemaHas(doc, [...schemasOfBodies(doc, 'request'), ...[...operations(doc)].flatMap((op) => op.parameters.map((p) => p.schema))], (s) => s.readOnly === true),
  'response-write-only': (doc) => !anySchemaHas(doc, schemasOfBodies(doc, 'response'), (s) => s.writeOnly === true),
  'loosely-typed': (doc) => [...operations(doc)].every((op) => bodiesOf(doc, op).every((b) => b.mediaType === 'application/json'
    || (b.mediaType === 'multipart/form-data' && Object.values(deref(doc, b.media.schema)[0].properties ?? {}).every((p) => p.contentMediaType || p.format === 'binary')))),
  'operation-id': (doc) => [...operations(doc)].every((op) => typeof op.operation.operationId === 'string'),
};
