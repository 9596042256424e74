// Prism's operations of a mock document are made once per supervising process
// (src/operations-cache.mjs): the first worker sends them to the supervisor as JSON, the next
// worker started for the same text is handed them. The operations must be plain data (JSON keeps
// them whole); a worker on handed operations must answer as the one that made them (the whole
// suite runs mostly on handed operations: a test file's first mock makes them); a changed document is never served from the operations of its old text; and a document
// that refers to other files is always read anew.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operationsOf } from '../src/engine.mjs';
import { mockDocumentPath, startMock } from '../src/index.mjs';
import { handedCount, selfContained } from '../src/operations-cache.mjs';

const scratch = mkdtempSync(path.join(tmpdir(), 'cloudapi-mock-operations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Where a value is not plain JSON data (a function, a class instance, a date, a number JSON cannot hold). */
function notPlain(value, at = '', found = []) {
  if (value === null || value === undefined || ['string', 'boolean'].includes(typeof value)) return found;
  if (typeof value === 'number') { if (!Number.isFinite(value)) found.push(`${at}: ${value}`); return found; }
  if (typeof value !== 'object') { found.push(`${at}: a ${typeof value}`); return found; }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) { found.push(`${at}: a ${prototype.constructor?.name}`); return found; }
  for (const [key, item] of Object.entries(value)) notPlain(item, `${at}/${key}`, found);
  return found;
}

// Requests that reach what JSON could change in the operations: the X-Filter header's schema (its
// nested `+and`/`+or` items are one object in two places), a security scheme (a field Prism leaves
// undefined), an example answer and a request body refused.
const auth = { authorization: 'Bearer t' };
const probes = [
  ['/volumes', { headers: { ...auth, 'x-filter': JSON.stringify({ '+or': [{ label: 'my-volume' }, { '+and': [{ label: { '+contains': 'vol' } }] }] }) } }],
  ['/volumes', { headers: { ...auth, 'x-filter': JSON.stringify({ '+or': [{ '+and': 'not a list' }] }) } }],
  ['/volumes', {}],
  ['/volumes/12345', { headers: auth }],
  ['/regions/us-east', {}],
  ['/volumes', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'data' }) }],
];

/** The answers of a mock to the probes: status and body. */
async function answersOf(mock) {
  return Promise.all(probes.map(async ([where, init]) => {
    const response = await fetch(`${mock.baseUrl}${where}`, init);
    return { where, status: response.status, body: await response.text() };
  }));
}

describe('Prism\'s operations of a document, made once per process', () => {
  it('are plain data, which JSON keeps whole', async () => {
    const made = await operationsOf(mockDocumentPath);
    expect(made.length).toBeGreaterThan(100);
    expect(notPlain(made)).toEqual([]);
    expect(JSON.parse(JSON.stringify(made))).toEqual(made);
  });

  it('are handed to the next worker for the same text, which answers as the first one did; never for another text', async () => {
    // A text of its own (a space more), so that this process has not made its operations before.
    const document = path.join(scratch, 'openapi.mock.json');
    writeFileSync(document, `${readFileSync(mockDocumentPath, 'utf8')} `);
    const before = handedCount();
    const first = await startMock({ port: 0, watch: false, document, log: () => {} });
    let expected;
    try {
      expected = await answersOf(first);
    } finally {
      await first.stop();
    }
    expect(handedCount()).toBe(before);
    expect(expected.map(({ status }) => status)).toEqual([200, 400, 401, 200, 200, 400]);
    const again = await startMock({ port: 0, watch: false, document, log: () => {} });
    try {
      expect(handedCount()).toBe(before + 1);
      expect(await answersOf(again)).toEqual(expected);
    } finally {
      await again.stop();
    }
    // The same file, another text: the operations of the old text are not served.
    const changed = JSON.parse(readFileSync(document, 'utf8'));
    delete changed.paths['/v4/regions'];
    writeFileSync(document, JSON.stringify(changed));
    const edited = await startMock({ port: 0, watch: false, document, log: () => {} });
    try {
      expect(handedCount()).toBe(before + 1);
      expect((await fetch(`${edited.baseUrl}/regions`)).status).toBe(404);
      expect((await fetch(`${edited.baseUrl}/regions/us-east`)).status).toBe(200);
    } finally {
      await edited.stop();
    }
  }, 120_000);

  it('are not kept for a document that refers to other files', () => {
    expect(selfContained(readFileSync(mockDocumentPath, 'utf8'))).toBe(true);
    expect(selfContained('{"paths":{"/a":{"$ref":"#/components/pathItems/a"}}}')).toBe(true);
    expect(selfContained('{"paths":{"/a":{"$ref":"paths/a.json"}}}')).toBe(false);
    expect(selfContained('{"schema": { "$ref" : "./schemas.yaml#/Thing" }}')).toBe(false);
  });
});
