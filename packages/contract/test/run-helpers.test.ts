// The helpers of a run that need no state, each on its own: selection, waiting, pages, the
// method a path lacks, the order of changes and deletes, names taken, the exit code.
import { describe, expect, it } from 'vitest';
import { isObject, deepEqual } from '../src/model/json.js';
import { nameTaken } from '../src/phases/operation-checks.js';
import { orderChanges, orderDeletes, undoneBy } from '../src/run/ordering.js';
import { identityBy, pageProblems, walkProblems } from '../src/checks/pages.js';
import { allowProblem, lackingMethod } from '../src/phases/probes.js';
import { declaredHeaderChecks, headerValue } from '../src/checks/header-checks.js';
import { selectOperations } from '../src/run/selection.js';
import { isTransitional, readOnlyNames } from '../src/phases/sequences.js';
import { abortedAsUnusable, exitCodeOf } from '../src/phases/summary.js';
import { pool, retryAfterMs } from '../src/transport/timing.js';
import { allOperations } from './support.js';
import type { Operation } from '../src/model/operations.js';

const op = (id: string) => allOperations.find((o) => o.id === id)!;
const fake = (id: string, method: string, path: string, index = 0) => ({ id, method, path, index }) as Operation;

describe('selection', () => {
  it('takes areas, operationIds and METHOD /path, then skips, then shards without overlap', () => {
    const volumes = selectOperations(allOperations, { only: ['Volumes'] });
    expect(volumes.length).toBeGreaterThan(3);
    expect(volumes.every((o) => o.tags.includes('Volumes'))).toBe(true);
    expect(selectOperations(allOperations, { only: ['get /volumes/{volumeId}'] }).map((o) => o.id)).toEqual(['getVolume']);
    expect(selectOperations(allOperations, { only: ['Volumes'], skip: ['getVolume'] }).map((o) => o.id)).not.toContain('getVolume');
    const a = selectOperations(allOperations, { only: ['Volumes'], shard: { index: 1, count: 2 } });
    const b = selectOperations(allOperations, { only: ['Volumes'], shard: { index: 2, count: 2 } });
    expect(a.filter((o) => b.includes(o))).toEqual([]);
    expect(a.length + b.length).toBe(volumes.length);
  });
});

describe('waiting', () => {
  it('reads Retry-After as seconds or a date, capped, and 1 s without it', () => {
    expect(retryAfterMs({ headers: { 'retry-after': '2' } }, 10_000)).toBe(2000);
    expect(retryAfterMs({ headers: { 'retry-after': '30' } }, 10_000)).toBe(10_000);
    expect(retryAfterMs({ headers: {} }, 10_000)).toBe(1000);
    expect(retryAfterMs({ headers: {} }, 300)).toBe(300);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' } }, 10_000, now)).toBe(3000);
    expect(retryAfterMs({ headers: { 'retry-after': 'soon' } }, 10_000)).toBe(1000);
  });

  it('runs at most size items at a time, each once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await pool([1, 2, 3, 4, 5], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      done.push(n);
      running--;
    });
    expect(most).toBe(2);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('pages', () => {
  it('finds what is wrong with one page, and tells a page from another answer', () => {
    expect(pageProblems({ data: [1, 2], page: 1, pages: 2, results: 3 }, 1, 2)).toEqual([]);
    expect(pageProblems({ data: [3], page: 2, pages: 2, results: 3 }, 2, 2)).toEqual([]);
    expect(pageProblems({ data: [1, 2], page: 1, pages: 2, results: 3 }, 2, 2)).toEqual(['page is 1 for page=2', '2 items on page 2, but 3 results at page_size 2 put 1 there']);
    expect(pageProblems({ data: [1, 2, 3], page: 1, pages: 5, results: 3 }, 1, 2)!.join('; ')).toMatch(/pages is 5, but 3 results at page_size 2 make 2; 3 items on a page of 2/);
    expect(pageProblems({ data: [], page: 1, pages: 0, results: 0 }, 1, 25)).toEqual([]);
    expect(pageProblems({ id: 1 }, 1, 25)).toBeUndefined();
    expect(pageProblems([1, 2], 1, 25)).toBeUndefined();
  });

  it('fails a walk that sees an item twice or counts other than results', () => {
    const id = identityBy(['id']);
    const walked = (ids: number[], total: number) => ({ items: ids.map((n, i) => ({ item: { id: n }, page: i + 1 })), total, pages: ids.length, complete: true });
    expect(walkProblems(walked([1, 2, 3], 3), id)).toEqual([]);
    expect(walkProblems(walked([1, 2, 1], 3), id)).toEqual(['1 item(s) came twice while walking the pages (first: [1])']);
    expect(walkProblems(walked([1, 2], 3), id)).toEqual(['the pages held 2 items, but results says 3']);
    expect(identityBy(['id'])({ label: 'x' })).toBe('{"label":"x"}');
  });
});

describe('the method a path lacks', () => {
  it('is GET, else PATCH, PUT or POST, never one another template answers for the same URL', () => {
    const ops = [fake('a', 'post', '/backups/cancel'), fake('b', 'get', '/backups/{backupId}'), fake('c', 'get', '/things'), fake('d', 'post', '/things')];
    expect(lackingMethod(ops, '/backups/cancel')).toBe('patch');
    expect(lackingMethod(ops, '/things')).toBe('patch');
    expect(lackingMethod([...ops, fake('e', 'patch', '/things'), fake('f', 'put', '/things')], '/things')).toBeUndefined();
    expect(lackingMethod(ops, '/backups/{backupId}')).toBe('patch');
  });
});

describe('order', () => {
  it('finds what an undoing action undoes, on the same resource', () => {
    expect(undoneBy(allOperations, op('detachVolume'))?.id).toBe('attachVolume');
    expect(undoneBy(allOperations, op('attachVolume'))).toBeUndefined();
  });

  it('runs plain changes, then replacing ones, then undoing ones; deletes children first', () => {
    const changes = orderChanges([fake('detachThing', 'post', '/t/{a}/detach', 1), fake('rebuildThing', 'post', '/t/{a}/rebuild', 2), fake('updateThing', 'put', '/t/{a}', 3), fake('bootThing', 'post', '/t/{a}/boot', 0)]);
    expect(changes.map((o) => o.id)).toEqual(['bootThing', 'updateThing', 'rebuildThing', 'detachThing']);
    expect(orderDeletes([fake('x', 'delete', '/t/{a}', 0), fake('y', 'delete', '/t/{a}/c/{b}', 1)]).map((o) => o.id)).toEqual(['y', 'x']);
  });
});

describe('answers and states', () => {
  it('tells a name taken from another 400', () => {
    const taken = { status: 400, json: { errors: [{ field: 'label', reason: 'exists' }] } };
    expect(nameTaken(taken, { label: 'a' })).toBe(true);
    expect(nameTaken(taken, { size: 1 })).toBe(false);
    expect(nameTaken({ ...taken, status: 409 }, { label: 'a' })).toBe(false);
  });

  it('knows a transitional status, readOnly fields, and JSON equality', () => {
    expect(['creating', 'provisioning', 'booting'].every(isTransitional)).toBe(true);
    expect(['running', 'active', undefined].some(isTransitional)).toBe(false);
    const schemas: Record<string, any> = { '#/a': { allOf: [{ properties: { id: { readOnly: true } } }], properties: { label: {}, created: { readOnly: true } } } };
    const views = { resolve: (n: any) => n, schemaAt: (p: string) => schemas[p] } as any;
    expect([...readOnlyNames(views, '#/a')].sort()).toEqual(['created', 'id']);
    expect(readOnlyNames(views, null).size).toBe(0);
    expect(deepEqual({ a: [1] }, { a: [1] })).toBe(true);
    expect(isObject([])).toBe(false);
  });

  it('exits 2 for an unusable target whatever failed, 1 on a violation, 2 when unproven or stopped, 0 otherwise', () => {
    const base = { dry: false, reached: true, failed: 0, unproven: 0 };
    expect(exitCodeOf(base)).toBe(0);
    expect(exitCodeOf({ ...base, failed: 3 })).toBe(1);
    expect(exitCodeOf({ ...base, failed: 3, abort: 'the target is unusable: 5 requests' })).toBe(2);
    expect(exitCodeOf({ ...base, failed: 1, abort: 'the deadline of 1 s was reached' })).toBe(1);
    expect(exitCodeOf({ ...base, unproven: 1 })).toBe(2);
    expect(exitCodeOf({ ...base, dry: true, reached: false, abort: 'the target could not be reached: refused' })).toBe(2);
    expect(exitCodeOf({ ...base, dry: true, failed: 2 })).toBe(0);
    expect(abortedAsUnusable('interrupted (Ctrl-C)')).toBe(false);
  });
});

describe('headers', () => {
  it('a 405 lists the path\'s methods in Allow, not the one refused', () => {
    expect(allowProblem('GET, POST, HEAD', ['get', 'post'], 'patch')).toBeUndefined();
    expect(allowProblem(undefined, ['get'], 'patch')).toBe('the 405 carries no Allow header; it must list GET');
    expect(allowProblem('GET', ['get', 'post'], 'patch')).toBe('Allow is "GET", which lacks POST of the path\'s methods');
    expect(allowProblem('GET, PATCH', ['get'], 'patch')).toMatch(/lists PATCH, the method just refused/);
  });

  it('declared response headers: read as their schema\'s type, required ones present, values valid', () => {
    expect(headerValue('30', { type: 'integer' })).toBe(30);
    expect(headerValue('true', { type: 'boolean' })).toBe(true);
    expect(headerValue('soon', { type: 'integer' })).toBe('soon');
    const document = { components: { headers: { Limit: { schema: { type: 'integer', minimum: 1 } } } } };
    const response = { response: { headers: { 'X-Limit': { $ref: '#/components/headers/Limit' }, 'X-Id': { required: true, schema: { type: 'string' } } } }, pointer: '#/r' };
    const views = { validate: (_v: string, pointer: string, value: unknown) => ({ valid: pointer === '#/components/headers/Limit/schema' ? Number.isInteger(value) && (value as number) >= 1 : typeof value === 'string', errors: [{ message: 'is invalid' }] }) };
    expect(declaredHeaderChecks(document, views as any, response, { 'x-limit': '5', 'x-id': 'a' })[0]!.outcome).toBe('pass');
    expect(declaredHeaderChecks(document, views as any, response, { 'x-limit': '0' })[0]!.reason).toBe('X-Limit: "0" is invalid; X-Id is required and missing');
    expect(declaredHeaderChecks(document, views as any, { response: {}, pointer: '#/r' }, {})).toEqual([]);
  });
});

describe('the kit\'s own code', () => {
  it('has no file of src/ over 400 lines, and run.ts holds only the order of the phases', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../src/', import.meta.url);
    const sizes = Object.fromEntries(readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(new URL(f, dir), 'utf8').split('\n').length]));
    expect(Object.entries(sizes).filter(([, n]) => n > 400)).toEqual([]);
    expect(sizes['run.ts']).toBeLessThan(120);
  });

  it('keeps its folders in layers: each imports only the folders below it (README, "How the code is laid out")', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const MAY_IMPORT: Record<string, string[]> = {
      transport: [], model: ['transport/'], checks: ['transport/', 'model/'], run: ['transport/', 'model/', 'checks/'],
      phases: ['transport/', 'model/', 'checks/', 'run/'], report: ['checks/', 'run/types.js'],
    };
    const dir = new URL('../src/', import.meta.url);
    const wrong: string[] = [];
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.includes('/') && f.endsWith('.ts'))) {
      const folder = file.split('/')[0]!;
      for (const [, target] of readFileSync(new URL(file, dir), 'utf8').matchAll(/from '\.\.\/([^']+)'/g)) {
        if (!MAY_IMPORT[folder]!.some((allowed) => target!.startsWith(allowed))) wrong.push(`${file} imports ../${target}`);
      }
    }
    expect(Object.keys(MAY_IMPORT).sort()).toEqual(readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort());
    expect(wrong).toEqual([]);
  });
});
