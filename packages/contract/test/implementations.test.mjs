// The kit against implementations: a well-behaved one it must pass, and broken ones that each
// break one rule, where it must report exactly that violation. A kit that cannot fail is worthless.
import { afterEach, describe, expect, it } from 'vitest';
import { operations } from '@cloudapi/spec/walk';
import { loadDocument, runContract } from '../src/index.mjs';
import { startFixture } from './fixtures/server.mjs';

const document = loadDocument();
const operationCount = [...operations(document)].length;
let fixture;
afterEach(async () => { await fixture?.stop(); fixture = undefined; });

async function run(fixtureOptions, kitOptions = {}) {
  fixture = await startFixture({ document, ...fixtureOptions });
  return runContract({ baseUrl: fixture.baseUrl, token: 'test-token', document, ...kitOptions });
}

/** Every finding of one outcome as "operationId › check". */
function findings(result, outcome = 'fail') {
  return result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === outcome).map((c) => ({ op: op.operationId, request: r.label, check: c.name, reason: c.reason }))));
}
const keys = (list) => [...new Set(list.map((f) => `${f.op} › ${f.check}`))].sort();
const isOp = (id) => (op) => op.operation.operationId === id;

describe('a well-behaved implementation', () => {
  it('passes every check of every operation, with no warning', async () => {
    const result = await run({});
    expect(result.target).toBe('implementation');
    expect(findings(result)).toEqual([]);
    expect(findings(result, 'warn')).toEqual([]);
    expect(result.coverage).toMatchObject({ exercised: operationCount, successValidated: operationCount, total: operationCount });
    expect(result.ok).toBe(true);
    const checks = new Set(result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.map((c) => c.name))));
    for (const name of ['no 5xx', 'status declared', 'content type declared', 'body matches schema', 'error body matches schema', 'no undeclared fields', 'success', 'rejected', 'error names the field', '401 without token']) {
      expect(checks).toContain(name);
    }
  });

  it('is exercised in a stateful order: ids come from create answers and deletes come last', async () => {
    const result = await run({ stateful: true });
    expect(findings(result)).toEqual([]);
    expect(findings(result, 'warn')).toEqual([]);
    const { createdId } = fixture.seen.find((s) => s.method === 'POST' && s.path === '/v4/volumes' && s.createdId);
    expect(createdId).toBeGreaterThanOrEqual(9001);
    const volumePaths = fixture.seen.filter((s) => /^\/v4\/volumes\/\d+/.test(s.path));
    expect(volumePaths.length).toBeGreaterThan(10);
    expect(volumePaths.every((s) => s.path.startsWith(`/v4/volumes/${createdId}`))).toBe(true);
    const lastVolumeRequest = volumePaths.filter((s) => s.status < 400).at(-1);
    expect(lastVolumeRequest.method).toBe('DELETE');
  });

  it('without a token gets only the 401 checks on secured operations', async () => {
    const result = await run({}, { token: undefined });
    expect(findings(result)).toEqual([]);
    const createVolume = result.operations.find((op) => op.operationId === 'createVolume');
    expect(createVolume.requests.map((r) => r.kind)).toEqual(['no-token']);
    expect(createVolume.notes).toContain('no --token: only the 401 check ran');
    expect(result.coverage.exercised).toBe(operationCount);
    expect(result.coverage.successValidated).toBeLessThan(operationCount);
  });
});

describe('what state explains and what it does not', () => {
  it('an example id that does not exist is a warning, not a failure', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('getVolume')(op) && a.status === 200) { a.status = 404; a.body = { errors: [{ reason: 'Not found' }] }; } } } });
    expect(findings(result)).toEqual([]);
    expect(keys(findings(result, 'warn'))).toEqual(['getVolume › success']);
    expect(findings(result, 'warn')[0].reason).toMatch(/answered 404 .*the success response was not checked/);
  });

  it('a refused token fails every valid request of a secured operation', async () => {
    const breakage = { answer: (op, a) => { if (op.path.startsWith('/volumes') && a.status === 200) { a.status = 401; a.body = { errors: [{ reason: 'Invalid Token' }] }; } } };
    const result = await run({ breakage }, { only: ['Volumes'] });
    const found = findings(result);
    expect(new Set(found.map((f) => f.check))).toEqual(new Set(['success']));
    expect(new Set(found.map((f) => f.op)).size).toBe(9);
    expect(found[0].reason).toMatch(/the token was refused/);
  });

  it('a base URL without the base path gets a note', async () => {
    fixture = await startFixture({ document });
    const result = await runContract({ baseUrl: fixture.baseUrl.replace(/\/v4$/, ''), token: 't', document, only: ['listRegions'] });
    expect(result.notes[0]).toMatch(/does not end in \/v4/);
    expect(result.ok).toBe(false);
  });
});

// Each broken implementation is run over the area of the operation it breaks (the well-behaved
// runs above cover the whole bundle), so these stay quick as the spec grows.
describe('broken implementations: the kit reports exactly the violation', () => {
  it('a wrong type in a response body', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('getRegion')(op) && a.status === 200) a.body = { ...a.body, country: 42 }; } } }, { only: ['Regions'] });
    expect(keys(findings(result))).toEqual(['getRegion › body matches schema']);
    expect(findings(result)[0].reason).toMatch(/\/country must be string/);
    expect(result.ok).toBe(false);
  });

  it('an undeclared status code', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('listVolumes')(op) && a.status === 200) a.status = 202; } } }, { only: ['Volumes'] });
    expect(keys(findings(result))).toEqual(['listVolumes › status declared']);
    expect(findings(result).find((f) => f.check === 'status declared').reason).toMatch(/answered 202, which the operation does not declare \(declared: 200, 400, 401, 403, 429\)/);
  });

  it('a missing required field', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('getVolume')(op) && a.status === 200) delete a.body.status; } } }, { only: ['Volumes'] });
    expect(keys(findings(result))).toEqual(['getVolume › body matches schema']);
    expect(findings(result)[0].reason).toMatch(/must have required property 'status'/);
  });

  it('an undeclared field: a warning by default, a failure with undeclared "fail"', async () => {
    const breakage = { answer: (op, a) => { if (isOp('getVolume')(op) && a.status === 200) a.body = { ...a.body, colour: 'blue' }; } };
    const lenient = await run({ breakage }, { only: ['Volumes'] });
    expect(findings(lenient)).toEqual([]);
    expect(keys(findings(lenient, 'warn'))).toEqual(['getVolume › no undeclared fields']);
    expect(findings(lenient, 'warn')[0].reason).toMatch(/\/colour/);
    expect(lenient.ok).toBe(true);
    await fixture.stop();
    const strict = await run({ breakage }, { undeclared: 'fail', only: ['Volumes'] });
    expect(keys(findings(strict))).toEqual(['getVolume › no undeclared fields']);
    expect(strict.ok).toBe(false);
  });

  it('a 500', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('deleteTag')(op) && a.status === 200) { a.status = 500; a.body = { errors: [{ reason: 'boom' }] }; } } } }, { only: ['Tags'] });
    expect(keys(findings(result))).toEqual(['deleteTag › no 5xx']);
    expect(findings(result)[0].reason).toMatch(/answered 500/);
  });

  it('accepting an invalid body', async () => {
    const result = await run({ breakage: { skipValidation: isOp('createVolume') } }, { only: ['Volumes'] });
    const found = findings(result);
    expect(keys(found)).toEqual(['createVolume › rejected']);
    expect(found.map((f) => f.request)).toEqual(expect.arrayContaining([
      expect.stringMatching(/\[required\]$/), expect.stringMatching(/\[type\]$/), expect.stringMatching(/\[range\]$/), expect.stringMatching(/\[conditional\]$/), expect.stringMatching(/\[unknown field\]$/),
    ]));
    expect(found[0].reason).toMatch(/answered 200 to an invalid body; expected a 4xx/);
  });

  it('a 2xx without a token on a secured operation', async () => {
    const result = await run({ breakage: { skipAuth: isOp('listTags') } }, { only: ['Tags'] });
    expect(keys(findings(result))).toEqual(['listTags › 401 without token']);
    expect(findings(result)[0].reason).toMatch(/answered 200 without a token/);
  });

  it('an error body that does not match the error schema', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('resizeVolume')(op) && a.status === 400) a.body = { message: 'bad size' }; } } }, { only: ['Volumes'] });
    expect(keys(findings(result))).toEqual(['resizeVolume › error body matches schema', 'resizeVolume › error names the field']);
  });

  it('an error that names the wrong field', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('cloneVolume')(op) && a.status === 400) a.body = { errors: [{ field: 'size', reason: 'Invalid.' }] }; } } }, { only: ['Volumes'] });
    expect(keys(findings(result))).toEqual(['cloneVolume › error names the field']);
    expect(findings(result)[0].reason).toMatch(/the errors name "size"; expected "/);
  });

  it('an undeclared content type', async () => {
    const result = await run({ breakage: { answer: (op, a) => { if (isOp('listRegions')(op) && a.status === 200) { a.headers['content-type'] = 'text/html'; a.raw = '<p>regions</p>'; } } } }, { only: ['Regions'] });
    expect(keys(findings(result))).toEqual(['listRegions › content type declared']);
  });
});
