/// <reference types="vite/client" />
// What each area's `test/<area>/contract.ts` tells a contract-kit run over this server: the
// operations it waives (their valid request needs objects of an area not built yet) and what it
// prepares. Used by the kit's run against the server and by the run through the mock's proxy.
import { expect } from 'vitest';
import { formatReport, runContract } from '@cloudapi/contract';
import * as areas from '../../src/areas/index.js';
import { TOKENS } from './harness.js';
import type { Api, TestServer } from './harness.js';

interface AreaContract {
  waivers?: Record<string, string>;
  prepare?: (api: Api) => Promise<void>;
}
const perArea = Object.values(import.meta.glob<AreaContract>('../*/contract.ts', { eager: true }));

/** operationId → why its success cannot be proven yet. */
export const waivers = Object.assign({}, ...perArea.map((m) => m.waivers ?? {})) as Record<string, string>;
/** The tags of every area built. */
export const tags = Object.values(areas).flatMap((area) => area.tags);

export async function prepareAreas(api: Api): Promise<void> {
  for (const area of perArea) await area.prepare?.(api);
}

/** The failed checks of a kit run, but the success check of a waived operation. */
export function unexpectedFailures(result: any): string[] {
  return result.operations.flatMap((op: any) => op.requests.flatMap((r: any) => r.checks
    .filter((c: any) => c.outcome === 'fail' && !(op.operationId in waivers && c.name === 'success'))
    .map((c: any) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
}

/**
 * A whole kit run over every area built, with the full token (`spec`: another description of the
 * contract, e.g. its 3.0 edition), asserting what every such run must hold: an implementation,
 * no failure but a waived success, a validated success for every operation not waived. Returns
 * the result and its report for the caller's own checks.
 */
export async function expectContractKept(t: TestServer, options: { spec?: string } = {}) {
  const result = await runContract({ baseUrl: t.baseUrl, token: TOKENS.full.token, ...options, only: tags, allowDestructive: true, timeoutMs: 60_000 });
  const report = formatReport(result, { verbose: true });
  expect(result.target, report).toBe('implementation');
  // A waived operation's valid request may fail (its objects belong to an area not built yet);
  // nothing else may.
  expect(unexpectedFailures(result), report).toEqual([]);
  if (Object.keys(waivers).length === 0) expect(result.ok, report).toBe(true);
  const notValidated = result.operations.filter((op: any) => !op.successValidated).map((op: any) => op.operationId).sort();
  expect(notValidated, report).toEqual(Object.keys(waivers).sort());
  return { result, report };
}
