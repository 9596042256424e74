// The kit's output: a table per operation, the findings, what was not run and why, what could not
// be cleaned up, and the summary, whose last line always says `success validated N/M`. JUnit XML
// and JSON reports of the same result.
import type { ContractResult, OperationResult } from '../run/types.js';

const pad = (text: unknown, width: number) => String(text).padEnd(width);
const padLeft = (text: unknown, width: number) => String(text).padStart(width);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The widest line of the table and the notes above it: a terminal of 100 columns. */
export const REPORT_COLUMNS = 100;

const TARGET_NOTES: Record<string, string[]> = {
  mock: [
    'checked against the mock: every answer against its schema, invalid requests refused with a 400',
    'naming the broken field, missing and malformed credentials refused, 405 with an ErrorResponse,',
    'generated requests answered.',
  ],
  implementation: [
    'checked against an implementation: all of the above, unknown and duplicated tokens refused,',
    'stateful sequences from the spec\'s links (read after create, update read back, listed, 404 and',
    'unlisted after delete), every list walked.',
  ],
};

/** Cuts text to a number of columns (code points), with an ellipsis where it was cut. */
const fit = (text: string, columns: number): string => {
  const chars = [...text];
  return chars.length <= columns ? text : `${chars.slice(0, Math.max(0, columns - 1)).join('')}…`;
};

function firstProblem(op: OperationResult): string {
  for (const request of op.requests) {
    const failed = request.checks.find((c) => c.outcome === 'fail');
    if (failed) return `${failed.name}: ${failed.reason}`;
  }
  return op.unproven ? `not proven: ${op.unproven}` : '';
}

/** Which failures the target injected itself (answers marked x-fault), by operation and kind. */
function injectedSummary(result: ContractResult): string[] {
  const byKind = new Map<string, Set<string>>();
  let count = 0;
  for (const op of result.operations) for (const request of op.requests) for (const check of request.checks) {
    if (check.outcome !== 'fail' || !check.injected) continue;
    count += 1;
    byKind.set(check.injected, (byKind.get(check.injected) ?? new Set()).add(op.operationId));
  }
  if (!count) return [];
  return ['', `Injected faults: ${plural(count, 'failed check')} came from answers the target marked x-fault (its fault injection, FAULTS):`,
    ...[...byKind].map(([kind, ops]) => `  - x-fault: ${kind} on ${[...ops].join(', ')}`)];
}

/** The last line of every run's output. */
export function summaryLine(result: ContractResult): string {
  const { coverage, tally } = result;
  const validated = `success validated ${coverage.successValidated}/${coverage.selected}`;
  const scope = result.shard ? ` (shard ${result.shard.index}/${result.shard.count} of ${coverage.total} operations)` : coverage.selected !== coverage.total ? ` (${coverage.selected} of ${coverage.total} operations selected)` : '';
  if (result.dryRun) return `dry run: ${result.planned.length} requests listed, none sent; ${validated}${scope}`;
  if (result.exitCode === 0) return `✔ the target keeps the contract: ${validated}${scope}`;
  if (result.exitCode === 1) return `✖ the target breaks the contract: ${plural(tally.fail, 'failed check')}${result.abort ? ` (then ${result.abort})` : ''}; ${validated}${scope}`;
  const why = result.abort ?? `${plural(coverage.unproven, 'operation')} could not be proven (listed above)`;
  return `✖ the run could not be made: ${why}; ${validated}${scope}`;
}

/** The human-readable report. `verbose` lists warnings as well as failures. */
export function formatReport(result: ContractResult, { verbose = false } = {}): string {
  const lines: string[] = [];
  lines.push(`Contract of ${result.api} against ${result.baseUrl}`);
  lines.push(`target: ${result.target ?? 'unknown'} (${result.detection})`);
  for (const note of result.target ? TARGET_NOTES[result.target] ?? [] : []) lines.push(`  ${note}`);
  if (result.safety) lines.push(`safety: ${result.safety.reason}`);
  lines.push(`token: ${result.token}`);
  for (const note of result.notes) lines.push(`note: ${note}`);
  if (result.dryRun) {
    lines.push('', `The requests a run would send (ids that a create would give are shown as <name made by operation>):`);
    for (const line of result.planned) lines.push(`  ${line}`);
  }
  if (result.operations.length && !result.dryRun) {
    // The route is in the findings and the reports; the table keeps to REPORT_COLUMNS.
    lines.push('');
    const width = Math.min(34, Math.max(9, ...result.operations.map((op) => op.operationId.length)));
    const head = `  ${pad('operation', width)}  passed failed warned skipped  `;
    lines.push(`${head}first problem`);
    for (const op of result.operations) {
      const t = op.tally;
      const mark = t.fail ? '✖' : op.successValidated ? '✔' : '·';
      const row = `${mark} ${pad(fit(op.operationId, width), width)}  ${padLeft(t.pass, 6)} ${padLeft(t.fail, 6)} ${padLeft(t.warn, 6)} ${padLeft(t.skip, 7)}  `;
      lines.push(`${row}${fit(firstProblem(op), REPORT_COLUMNS - [...row].length)}`);
    }
  }
  const findings: string[] = [];
  for (const op of result.operations) {
    for (const request of op.requests) {
      for (const check of request.checks) {
        if (check.outcome === 'fail' || (verbose && check.outcome === 'warn')) {
          findings.push(`${check.outcome === 'fail' ? '✖' : '⚠'} ${op.operationId} (${op.method} ${op.path}) › ${request.label} › ${check.name}: ${check.reason}`);
          if (check.outcome === 'fail' && request.curl) findings.push(`    ${request.curl}`);
        }
      }
    }
  }
  if (findings.length) lines.push('', ...findings);
  const unproven = result.operations.filter((op) => !op.successValidated && op.tally.fail === 0 && op.unproven);
  if (unproven.length && !result.dryRun) {
    lines.push('', `Not proven (${unproven.length}): a valid request of these operations was not answered with a validated success, and nothing failed:`);
    for (const op of unproven) lines.push(`  · ${op.operationId}: ${op.unproven}`);
  }
  if (verbose) {
    // Skipped checks, one line per check and reason, with how often and where.
    const skipped = new Map<string, { count: number; ops: Set<string> }>();
    for (const op of result.operations) for (const request of op.requests) for (const check of request.checks) {
      if (check.outcome !== 'skip') continue;
      const key = `${check.name}: ${check.reason}`;
      const entry = skipped.get(key) ?? { count: 0, ops: new Set<string>() };
      entry.count++;
      entry.ops.add(op.operationId);
      skipped.set(key, entry);
    }
    if (skipped.size) {
      lines.push('', `Skipped checks (${result.tally.skip}), by check and reason:`);
      for (const [key, { count, ops }] of [...skipped].sort((a, b) => b[1].count - a[1].count)) {
        const where = [...ops];
        lines.push(`  - ${key} (${count}×: ${where.slice(0, 4).join(', ')}${where.length > 4 ? ` and ${where.length - 4} more` : ''})`);
      }
    }
  }
  if (result.notRun.length) {
    lines.push('', 'Checks not run:');
    for (const n of result.notRun) lines.push(`  - ${n.check}: ${n.reason}`);
  }
  const opNotes = [...new Set(result.operations.flatMap((op) => op.notes.filter((n) => /^scope checks not run|^no 405|gave no key/.test(n)).map((n) => `${op.operationId}: ${n}`)))];
  if (opNotes.length) lines.push('', ...opNotes.slice(0, 12).map((n) => `  - ${n}`), ...(opNotes.length > 12 ? [`  - and ${opNotes.length - 12} more in the JSON report`] : []));
  const { cleanup } = result;
  const early = cleanup.removedAfterCheck.length ? ` (and ${cleanup.removedAfterCheck.length} that checks made on the way, right after them)` : '';
  if (cleanup.removed.length || cleanup.leftBehind.length || early) {
    lines.push('', `Clean-up: removed ${plural(cleanup.removed.length, 'resource')} the run created${early}${cleanup.leftBehind.length ? `; could not remove ${cleanup.leftBehind.length}:` : '.'}`);
    for (const left of cleanup.leftBehind) lines.push(`  ! ${left.resource}: ${left.reason}`);
  }
  const warnings = result.tally.warn;
  if (!verbose && (warnings || result.tally.skip)) lines.push('', `${plural(warnings, 'warning')} and ${plural(result.tally.skip, 'skipped check')} (--verbose lists them, the reports have them)`);
  for (const hint of result.hints ?? []) lines.push('', `hint: ${hint}`);
  lines.push(...injectedSummary(result));
  const t = result.tally;
  const { coverage } = result;
  lines.push('');
  lines.push(`coverage: ${coverage.exercised}/${coverage.selected} operations exercised; ${coverage.unproven} not proven`);
  lines.push(`checks: ${t.pass + t.fail + t.warn + t.skip} run, ${t.pass} passed, ${t.fail} failed, ${t.warn} warnings, ${t.skip} skipped, in ${(result.durationMs / 1000).toFixed(1)} s${result.slowest ? `; slowest answer ${result.slowest.ms} ms (${result.slowest.operationId})` : ''}; --seed ${result.seed}`);
  lines.push(summaryLine(result));
  return lines.join('\n');
}

/** Escapes text for XML and HTML (the JUnit and HTML reports), dropping control characters XML refuses. */
export const xml = (text: unknown) => String(text ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string)
  // eslint-disable-next-line no-control-regex
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** JUnit XML: one test suite per operation, one test case per check of each request. */
export function toJUnit(result: ContractResult): string {
  const t = result.tally;
  const unprovenCount = result.operations.filter((op) => op.unproven && !op.successValidated).length;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const errors = result.abort ? 1 : 0;
  out.push(`<testsuites name="cloudapi-contract" tests="${t.pass + t.fail + t.warn + t.skip + unprovenCount + errors}" failures="${t.fail}" errors="${errors}" skipped="${t.skip + unprovenCount}" time="${(result.durationMs / 1000).toFixed(3)}">`);
  if (result.abort) {
    out.push(`  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0">`);
    out.push(`    <testcase classname="cloudapi-contract.run" name="the run could be made"><error message="${xml(result.abort)}"/></testcase>`);
    out.push('  </testsuite>');
  }
  for (const op of result.operations) {
    const o = op.tally;
    const extra = op.unproven && !op.successValidated ? 1 : 0;
    const time = op.requests.reduce((sum, r) => sum + (r.ms || 0), 0) / 1000;
    out.push(`  <testsuite name="${xml(`${op.operationId} (${op.method} ${op.path})`)}" tests="${o.pass + o.fail + o.warn + o.skip + extra}" failures="${o.fail}" errors="0" skipped="${o.skip + extra}" time="${time.toFixed(3)}">`);
    out.push(`    <properties><property name="target" value="${xml(result.target)}"/><property name="security" value="${xml(op.security)}"/><property name="success validated" value="${op.successValidated}"/></properties>`);
    if (extra) out.push(`    <testcase classname="${xml(`cloudapi-contract.${op.operationId}`)}" name="success validated"><skipped message="${xml(`not proven: ${op.unproven}`)}"/></testcase>`);
    for (const request of op.requests) {
      for (const check of request.checks) {
        const name = xml(`${request.label} › ${check.name}`);
        const head = `    <testcase classname="${xml(`cloudapi-contract.${op.operationId}`)}" name="${name}" time="${((request.ms || 0) / 1000).toFixed(3)}"`;
        const where = request.url ? `${request.method} ${request.url} → ${request.status ?? 'no answer'}` : '';
        if (check.outcome === 'fail') out.push(`${head}><failure message="${xml(check.reason)}" type="${xml(check.name)}">${xml(`${where}\n${check.reason}${request.curl ? `\n${request.curl}` : ''}`)}</failure></testcase>`);
        else if (check.outcome === 'skip') out.push(`${head}><skipped message="${xml(check.reason)}"/></testcase>`);
        else if (check.outcome === 'warn') out.push(`${head}><system-out>${xml(`warning: ${check.reason}\n${where}`)}</system-out></testcase>`);
        else out.push(`${head}/>`);
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** The JSON report: the whole result, plus the summary line. */
export function toJson(result: ContractResult): string {
  return `${JSON.stringify({ summary: summaryLine(result), ...result }, null, 2)}\n`;
}
