// The kit against the Prism mock over every operation of the bundle: every operation answers its
// valid request with a valid example, refuses every invalid variant for the reason the variant
// breaks, and refuses secured operations without a token. Coverage must be the whole bundle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { operations } from '@cloudapi/spec/walk';
import { createVariantDeriver, loadDocument, runContract, securityOf } from '../src/index.mjs';
import { isJsonMedia } from '../src/http.mjs';
import { requestBodyOf } from '../src/plan.mjs';

const document = loadDocument();
const all = [...operations(document)];
let mock;
let result;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  result = await runContract({ baseUrl: mock.baseUrl, document });
}, 300_000);
afterAll(async () => { await mock?.stop(); });

const checksOf = (op, kind) => op.requests.filter((r) => r.kind === kind).flatMap((r) => r.checks);

describe('the contract run against the Prism mock', () => {
  it('detects the mock and keeps the contract: no failed check', () => {
    expect(result.target).toBe('mock');
    expect(result.detection).toMatch(/Prism/);
    const failures = result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
    expect(failures).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('covers every operation in the bundle', () => {
    expect(result.coverage.total).toBe(all.length);
    expect(result.coverage.exercised).toBe(all.length);
    expect(result.operations.map((op) => op.operationId).sort()).toEqual(all.map((op) => op.operation.operationId).sort());
  });

  it('gets a valid example from every operation: a 2xx whose body matches its schema', () => {
    expect(result.coverage.successValidated).toBe(all.length);
    for (const op of result.operations) {
      const checks = checksOf(op, 'positive');
      expect(checks.filter((c) => c.name === 'success' && c.outcome === 'pass').length, op.operationId).toBeGreaterThan(0);
      const body = checks.filter((c) => c.name === 'body matches schema');
      expect(body.every((c) => c.outcome === 'pass'), op.operationId).toBe(true);
    }
  });

  it('sends every invalid body the kit derives, and sees each refused for the field it breaks, by Prism and in the error body', () => {
    const views = createSchemaViews(document);
    const deriver = createVariantDeriver(views);
    let total = 0;
    for (const op of all.filter((o) => o.operation.requestBody)) {
      const body = requestBodyOf(document, op, views.resolve);
      const derived = deriver.deriveVariants(body.schemaPointer, body.examples.map((e) => e.value), { jsonBody: isJsonMedia(body.mediaType) });
      const run = result.operations.find((r) => r.operationId === op.operation.operationId);
      const negative = run.requests.filter((r) => r.kind === 'negative' && !/ parameter /.test(r.label));
      expect(negative.length, op.operation.operationId).toBe(derived.length);
      total += negative.length;
      for (const request of negative) {
        expect(request.checks.find((c) => c.name === 'rejected')?.outcome, request.label).toBe('pass');
        expect(request.checks.find((c) => c.name === 'Prism flags the field')?.outcome, request.label).toBe('pass');
        expect(request.checks.find((c) => c.name === 'error names the field')?.outcome, request.label).toBe('pass');
      }
    }
    expect(total).toBeGreaterThan(0);
  });

  it('sees every secured operation refuse a request without a token with 401', () => {
    const secured = all.filter((op) => securityOf(document, op.operation) === 'secured');
    expect(secured.length).toBeGreaterThan(0);
    for (const op of secured) {
      const run = result.operations.find((r) => r.operationId === op.operation.operationId);
      expect(checksOf(run, 'no-token').find((c) => c.name === '401 without token')?.outcome, op.operation.operationId).toBe('pass');
    }
  });

  it('forced to "implementation", the mock keeps the contract too: its errors name the field', async () => {
    const forced = await runContract({ baseUrl: mock.baseUrl, document, target: 'implementation', token: 'x', only: ['resizeVolume', 'createVolume', 'attachVolume'] });
    const named = forced.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.name === 'error names the field')));
    expect(named.length).toBeGreaterThan(3);
    const failures = forced.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
    expect(failures).toEqual([]);
  });
});
