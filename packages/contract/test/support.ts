// What the kit's tests share: the bundle with links (the spec's own once it has them), a tokens
// file covering every scope check, the fake implementation, and readers of a run's findings.
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { loadDocument, makeTokens, modelOperations, runContract, type ContractOptions, type ContractResult } from '../src/index.js';
import { startFake, type Defect, type Fake, type FakeHooks } from './fixtures/fake.js';
import { withLinks } from './fixtures/links.js';

export const document = withLinks(loadDocument());
export const allOperations = modelOperations(document, createSchemaViews(document).resolve);
export const tokens = makeTokens(allOperations);
/** The areas the fake implements correctly, and their operations. */
export const AREAS = ['Regions', 'Volumes', 'Tags'];

export async function withFake<T>(options: { defect?: Defect; defectOp?: string; slowMs?: number; hooks?: FakeHooks }, work: (fake: Fake) => Promise<T>): Promise<T> {
  const fake = await startFake({ document, tokens, ...options });
  try { return await work(fake); } finally { await fake.stop(); }
}

/** A run against the fake, over the areas it implements unless told otherwise. */
export function runAgainst(fake: Fake, options: Partial<ContractOptions> = {}): Promise<ContractResult> {
  return runContract({ baseUrl: fake.baseUrl, document, tokens, only: AREAS, examples: 0, timeoutMs: 5000, ...options });
}

export interface Finding { op: string; request: string; check: string; reason: string }

export function findings(result: ContractResult, outcome: 'fail' | 'warn' | 'skip' | 'pass' = 'fail'): Finding[] {
  return result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === outcome).map((c) => ({ op: op.operationId, request: r.label, check: c.name, reason: c.reason }))));
}
/** "operationId › check" of each finding, once each, sorted. */
export const keys = (list: Finding[]): string[] => [...new Set(list.map((f) => `${f.op} › ${f.check}`))].sort();
export const checkNames = (result: ContractResult): Set<string> => new Set(result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.map((c) => c.name))));

/** The rows of the operations table: from its header to the first blank line. */
export const tableOf = (text: string): string[] => {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^ {2}operation +passed failed warned skipped {2}first problem$/.test(l));
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start, end < 0 ? undefined : end);
};
