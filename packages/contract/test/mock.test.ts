// The kit against the Prism mock over every operation of the bundle: every operation answers a
// valid request with a validated success, every invalid variant is refused for the field it
// breaks, bad credentials get 401, and what the mock cannot show (state, scopes, token validity)
// is listed as not run, with the reason, rather than dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import { runContract, type ContractResult } from '../src/index.js';
import { allOperations, document, findings } from './support.js';

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

  it('sends invalid variants that Prism refuses for the field each breaks, and bad credentials that it refuses with 401', () => {
    const negatives = result.operations.flatMap((op) => op.requests.filter((r) => r.kind === 'negative'));
    expect(negatives.length).toBeGreaterThan(500);
    for (const request of negatives) expect(request.checks.find((c) => c.name === 'Prism flags the field')?.outcome, request.label).toBe('pass');
    const secured = allOperations.filter((op) => op.security === 'secured');
    for (const op of secured) {
      const auth = result.operations.find((o) => o.operationId === op.id)!.requests.filter((r) => r.kind === 'auth').map((r) => r.label);
      expect(auth, op.id).toEqual(['401 without a token', '401 for "Bearer" without a token', '401 for a Basic credential']);
    }
  });

  it('says which checks it could not run on the mock, and why', () => {
    const notRun = result.notRun.map((n) => `${n.check}: ${n.reason}`).join('\n');
    expect(notRun).toMatch(/stateful sequences .*: the mock keeps no state/);
    expect(notRun).toMatch(/scope, grant and restricted-user checks \(403\): the mock checks no scopes/);
    expect(notRun).toMatch(/401 for an unknown token.*: Prism only checks that a bearer credential is present/);
    expect(notRun).toMatch(/"error names the field" on a 400: Prism answers every invalid request with the operation's own 400 example/);
    expect(result.operations.flatMap((op) => op.requests).filter((r) => ['scope', 'sequence', 'pagination'].includes(r.kind))).toEqual([]);
  });

  it('cannot check that errors name the field on the mock: forced to "implementation", that check fails', async () => {
    const forced = await runContract({ baseUrl: mock.baseUrl, document, target: 'implementation', token: 'x', only: ['resizeVolume'], examples: 0 });
    const failed = findings(forced).filter((f) => f.check === 'error names the field');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.reason).toMatch(/the errors name "label"; expected "size"/);
  });
});
