// A whole contract-kit run over every area of this server, as the contract tests and the run
// through the mock's proxy make it.
import { expect } from 'vitest';
import { formatReport, runContract } from '@cloudapi/contract';
import { loadBundle } from '@cloudapi/spec/bundle';
import * as areas from '../../src/areas/index.js';
import { TOKENS } from './harness.js';
import type { TestServer } from './harness.js';

/** The tags of every area. */
export const tags = Object.values(areas).flatMap((area) => area.tags);

/**
 * The kit's options for a whole run over every area of a test server. The test servers'
 * transitions take no time (transitionMs 0), so a refusal for a resource's state is never one a
 * wait would lift: the kit does not retry it (settleMs 0) and reports it at once, where it would
 * otherwise wait out its 5 s for nothing (a second attachVolume example on an attached volume).
 */
export const wholeRun = (t: Pick<TestServer, 'baseUrl'>, spec?: string) => ({ baseUrl: t.baseUrl, token: TOKENS.full.token, only: tags, allowDestructive: true, timeoutMs: 60_000, settleMs: 0, document: kitDocument(spec) });

const documents = new Map<string, object>();

/**
 * The description the kit reads (the bundle, or the file `spec`), loaded once per test worker:
 * the kit keeps the validators it compiles per document object, about a second of CPU per whole
 * run that the runs of a worker (this file's, the proxy's, the traffic test's) now share.
 */
export function kitDocument(spec?: string): any {
  const key = spec ?? '';
  if (!documents.has(key)) documents.set(key, loadBundle(spec));
  return documents.get(key);
}

/** The failed checks of a kit run, one line each. */
export function failures(result: any): string[] {
  return result.operations.flatMap((op: any) => op.requests.flatMap((r: any) => r.checks
    .filter((c: any) => c.outcome === 'fail')
    .map((c: any) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
}

/**
 * A whole kit run over every area, with the full token (`spec`: another description of the
 * contract, e.g. its 3.0 edition), asserting what every such run must hold: an implementation,
 * no failure, a validated success for every operation. Returns the result and its report for the
 * caller's own checks.
 */
export async function expectContractKept(t: TestServer, options: { spec?: string } = {}) {
  const result = await runContract(wholeRun(t, options.spec));
  const report = formatReport(result, { verbose: true });
  expect(result.target, report).toBe('implementation');
  expect(failures(result), report).toEqual([]);
  expect(result.ok, report).toBe(true);
  const notValidated = result.operations.filter((op: any) => !op.successValidated).map((op: any) => op.operationId).sort();
  expect(notValidated, report).toEqual([]);
  return { result, report };
}
