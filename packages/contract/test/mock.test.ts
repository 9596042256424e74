// The kit against the Prism mock over every operation of the bundle: every operation answers a
// valid request with a validated success, every invalid variant is refused with a 400 naming the
// field it breaks, bad credentials get 401, a lower-case "bearer" is taken, a 405 has an
// ErrorResponse body, and what the mock cannot show (state, scopes, token validity) is listed as
// not run, with the reason, rather than dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import { formatReport, runContract, type ContractResult } from '../src/index.js';
import { allOperations, document, findings, keys, runAgainst, tableOf, withFake } from './support.js';

let mock: Awaited<ReturnType<typeof startMock>>;
let result: ContractResult;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  result = await runContract({ baseUrl: mock.baseUrl, document, examples: 1, seed: 1 });
}, 300_000);
afterAll(async () => { await mock?.stop(); });

describe('the contract run against the Prism mock', () => {
  it('detects the mock and keeps the contract, with every success validated', () => {
    expect(result.target).toBe('mock');
    expect(result.detection).toMatch(/Prism/);
    expect(findings(result).map((f) => `${f.op} › ${f.request} › ${f.check}: ${f.reason}`)).toEqual([]);
    expect(result.coverage).toMatchObject({ selected: allOperations.length, total: allOperations.length, successValidated: allOperations.length, unproven: 0 });
    expect(result.exitCode).toBe(0);
  });

  it('sends invalid variants that the mock refuses with a 400 naming the field each breaks, and bad credentials that it refuses with 401', () => {
    const negatives = result.operations.flatMap((op) => op.requests.filter((r) => r.kind === 'negative'));
    expect(negatives.length).toBeGreaterThan(500);
    for (const request of negatives) expect(request.checks.find((c) => c.name === 'Prism flags the field')?.outcome, request.label).toBe('pass');
    // The mock's 400 names each offending field in errors[]: the check runs there, and passes.
    const named = negatives.flatMap((r) => r.checks.filter((c) => c.name === 'error names the field'));
    expect(named.length).toBeGreaterThan(500);
    expect(named.filter((c) => c.outcome !== 'pass')).toEqual([]);
    const secured = allOperations.filter((op) => op.security === 'secured');
    for (const op of secured) {
      const auth = result.operations.find((o) => o.operationId === op.id)!.requests.filter((r) => r.kind === 'auth').map((r) => r.label);
      const lowerCase = op.writes ? [] : ['a lower-case "bearer" scheme is accepted'];
      expect(auth, op.id).toEqual(['401 without a token', '401 for "Bearer" without a token', '401 for a Basic credential', ...lowerCase]);
    }
  });

  it('checks that the mock takes a lower-case "bearer" and answers 405 with an ErrorResponse', () => {
    const checks = result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks));
    const lowerCase = checks.filter((c) => c.name === 'a lower-case "bearer" scheme is accepted');
    const body405 = checks.filter((c) => c.name === '405 body is an ErrorResponse');
    expect(lowerCase.length).toBeGreaterThan(40);
    expect(body405.length).toBeGreaterThan(20);
    expect([...lowerCase, ...body405].filter((c) => c.outcome !== 'pass')).toEqual([]);
  });

  it('prints a table of all 128 operations within 100 columns', () => {
    const table = tableOf(formatReport(result));
    expect(table.length).toBe(allOperations.length + 1);
    for (const line of table) expect([...line].length, line).toBeLessThanOrEqual(100);
  });

  it('says which checks it could not run on the mock, and why', () => {
    const notRun = result.notRun.map((n) => `${n.check}: ${n.reason}`).join('\n');
    expect(notRun).toMatch(/stateful sequences .*: the mock keeps no state/);
    expect(notRun).toMatch(/scope, grant and restricted-user checks \(403\): the mock checks no scopes/);
    expect(notRun).toMatch(/401 for an unknown token, 401 for two Authorization headers: the mock accepts any bearer token/);
    expect(notRun).toMatch(/pre-signed URLs used .*: the mock hands out example URLs that lead nowhere/);
    expect(notRun).not.toMatch(/error names the field|405|lower-case/);
    expect(result.operations.flatMap((op) => op.requests).filter((r) => ['scope', 'sequence', 'pagination'].includes(r.kind))).toEqual([]);
  });
});

describe('"error names the field" can fail', () => {
  it('fails on a target whose 400 blames another field than the one at fault', async () => {
    await withFake({ defect: 'blame-wrong-field' }, async (fake) => {
      const broken = await runAgainst(fake, { only: ['resizeVolume'] });
      expect(keys(findings(broken))).toEqual(['resizeVolume › error names the field']);
      expect(findings(broken).map((f) => f.reason)).toContainEqual(expect.stringMatching(/the errors name "label"; expected "size"/));
      expect(broken.exitCode).toBe(1);
    });
  });
});
