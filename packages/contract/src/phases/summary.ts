// The end of a run: the tallies, what each operation proved, hints about the run itself, and the
// exit code (0 kept, 1 a violation, 2 the run could not be made).
import type { ContractResult, OperationResult } from '../run/types.js';
import { redactDeep } from '../run/redaction.js';
import type { Ledger } from '../run/ledger.js';
import type { Basis } from '../run/plan.js';

/** What the run's end adds to what the state holds: the target, why it stopped, the clean-up. */
export type Ending = Omit<ContractResult, 'operations' | 'coverage' | 'tally' | 'durationMs' | 'exitCode' | 'ok' | 'cleanup' | 'api' | 'baseUrl' | 'notes' | 'notRun' | 'setup' | 'planned' | 'seed' | 'shard' | 'dryRun'> & { cleanup?: ContractResult['cleanup'] };

/** Whether an abort says the target itself was unusable (its failures are the symptom, not violations). */
export const abortedAsUnusable = (abort: string | undefined): boolean => abort !== undefined && /^the target (is unusable|could not be reached)/.test(abort);

/**
 * The exit code: an unusable target ends with 2 whatever failed on the way; a deadline or an
 * interruption after a proven violation still says 1; a dry run says 0 once the target was found.
 */
export function exitCodeOf(o: { dry: boolean; abort?: string; reached: boolean; failed: number; unproven: number }): 0 | 1 | 2 {
  if (o.dry) return o.abort && !o.reached ? 2 : 0;
  if (abortedAsUnusable(o.abort)) return 2;
  if (o.failed > 0) return 1;
  return o.abort || o.unproven > 0 ? 2 : 0;
}

/** Every valid request answered 404: most likely the base URL lacks the API's base path. */
function baseUrlHints(plan: Basis, list: OperationResult[]): string[] {
  const { serverPath } = plan;
  const { baseUrl } = plan.settings;
  const answered = list.flatMap((op) => op.requests.filter((r) => r.kind === 'positive' && typeof r.status === 'number'));
  const missing = answered.filter((r) => r.status === 404).length;
  if (!answered.length || missing < 0.9 * answered.length) return [];
  const example = serverPath && !new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith(serverPath) ? ` (such as ${baseUrl}${serverPath})` : '';
  return [`${missing} of ${answered.length} valid requests were answered 404: does --base-url end in the API's base path${serverPath ? ` (${serverPath}, from the spec's server URL)` : ''}${example}?`];
}

export function finish(plan: Basis, ledger: Ledger, partial: Ending): ContractResult {
  const { document } = plan;
  const { dry } = plan.settings;
  const tally = { pass: 0, fail: 0, warn: 0, skip: 0 };
  const list = plan.selected.map((op) => ledger.results.get(op)!);
  let slowest: ContractResult['slowest'];
  for (const op of list) {
    op.tally = { pass: 0, fail: 0, warn: 0, skip: 0 };
    for (const request of op.requests) {
      for (const check of request.checks) { op.tally[check.outcome]++; tally[check.outcome]++; }
      if (request.ms !== undefined && (!slowest || request.ms > slowest.ms)) slowest = { operationId: op.operationId, label: request.label, ms: request.ms };
    }
    op.successValidated = !dry && op.requests.some((r) => r.kind === 'positive' && r.checks.some((c) => c.name === 'success' && c.outcome === 'pass') && !r.checks.some((c) => c.outcome === 'fail'));
    if (!op.successValidated && !op.unproven && !op.requests.some((r) => r.kind === 'positive') && op.requests.length && !dry) op.unproven = 'no valid request was answered';
  }
  const exercised = list.filter((op) => op.requests.some((r) => r.status !== null && r.status !== undefined)).length;
  const successValidated = list.filter((op) => op.successValidated).length;
  const unproven = list.filter((op) => !op.successValidated && op.tally.fail === 0).length;
  const cleanup = partial.cleanup ?? { removed: [], leftBehind: [], removedAfterCheck: [] };
  const exitCode = exitCodeOf({ dry, abort: partial.abort, reached: partial.target !== null, failed: tally.fail, unproven });
  // Answers quoted in reasons may carry a token the target echoed: the result leaves redacted.
  return redactDeep<ContractResult>({
    api: `${document.info?.title ?? 'API'} ${document.info?.version ?? ''}`.trim(), baseUrl: plan.settings.baseUrl, notes: ledger.notes, notRun: ledger.notRun, setup: ledger.setup, planned: ledger.planned, seed: plan.settings.seed, shard: plan.settings.shard, dryRun: dry,
    ...partial, hints: baseUrlHints(plan, list), cleanup, operations: list, slowest, tally, exitCode, ok: exitCode === 0,
    coverage: { selected: list.length, total: plan.ops.length, exercised, successValidated, unproven },
    durationMs: Math.round(performance.now() - plan.started),
  }, plan.redact);
}
