// Every operation of the bundle has a handler, or is in the one list of operations not built yet
// (src/areas/not-yet-implemented.ts), which must be exactly the operations of the bundle tags no
// area implements; each of those answers 501 with an ErrorResponse. Every handler names an
// operation of the bundle, and every area implements all operations of its tags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as areas from '../../src/areas/index.js';
import { NOT_YET_IMPLEMENTED } from '../../src/areas/not-yet-implemented.js';
import { describeBundle, loadBundle } from '../../src/core/spec.js';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

const spec = describeBundle(loadBundle());
const bundleOps = new Set(spec.operations.map((op) => op.operationId));
const handled = Object.values(areas).flatMap((area) => Object.keys(area.handlers).map((id) => ({ id, area: area.name })));
const builtTags = new Set(Object.values(areas).flatMap((area) => area.tags));

describe('handler coverage', () => {
  it('every handler names an operation of the bundle', () => {
    const unknown = handled.filter(({ id }) => !bundleOps.has(id));
    expect(unknown, 'handlers for operations the bundle does not have').toEqual([]);
  });

  it('no operation has two handlers', () => {
    const ids = handled.map(({ id }) => id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('every operation of the bundle has a handler or is listed as not implemented yet', () => {
    const handledIds = new Set(handled.map(({ id }) => id));
    const missing = [...bundleOps].filter((id) => !handledIds.has(id) && !(id in NOT_YET_IMPLEMENTED));
    expect(missing, 'operations with no handler and not in src/areas/not-yet-implemented.ts').toEqual([]);
    const both = [...handledIds].filter((id) => id in NOT_YET_IMPLEMENTED);
    expect(both, 'operations with a handler that are still listed as not implemented').toEqual([]);
  });

  it('each area implements every operation of the tags it claims', () => {
    for (const area of Object.values(areas)) {
      const expected = area.tags.flatMap((tag) => spec.operationsByTag.get(tag) ?? []);
      expect(expected.length, `${area.name}: tags ${area.tags} have no operations in the bundle`).toBeGreaterThan(0);
      expect(Object.keys(area.handlers).sort(), area.name).toEqual(expected.sort());
    }
  });

  it('the not-yet-implemented list is exactly the operations of the tags no area implements, each under its tag', () => {
    const expected = Object.fromEntries(spec.operations.filter((op) => !op.tags.some((tag) => builtTags.has(tag))).map((op) => [op.operationId, op.tags[0]]));
    expect(NOT_YET_IMPLEMENTED).toEqual(expected);
  });
});

describe('operations not built yet', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ name: 'coverage' }); });
  afterAll(() => t?.close());

  it('each answers 501 with an ErrorResponse naming the operation and its area', async () => {
    const ops = spec.operations.filter((op) => op.operationId in NOT_YET_IMPLEMENTED);
    expect(ops.length).toBe(Object.keys(NOT_YET_IMPLEMENTED).length);
    for (const op of ops) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const answer = await t.as('full').request(op.method, path, { body: op.requestBody ? {} : undefined });
      expect(answer.status, op.operationId).toBe(501);
      expect(answer.body).toEqual({ errors: [{ reason: expect.stringContaining(op.operationId) }] });
      expect(answer.body.errors[0].reason).toContain(NOT_YET_IMPLEMENTED[op.operationId]);
    }
  });
});
