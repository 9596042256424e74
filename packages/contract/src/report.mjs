// The kit's output: a table per operation, the findings, coverage, and a JUnit XML report.

const TARGET_NOTES = {
  mock: [
    'checked against the mock as well: "Prism flags the field" (Prism\'s sl-violations header points at the broken field);',
    '"error names the field" on every 400 to an invalid request; a non-2xx answer to a valid request fails.',
  ],
  implementation: [
    'checked against an implementation: "error names the field" on every 400 to an invalid request;',
    'a 4xx answer to a valid request is a warning (an example id may not exist), except a 401 and a 404 on a path without parameters.',
  ],
};

const pad = (text, width) => String(text).padEnd(width);
const padLeft = (text, width) => String(text).padStart(width);

function firstProblem(op) {
  for (const request of op.requests) {
    const failed = request.checks.find((c) => c.outcome === 'fail');
    if (failed) return `${failed.name}: ${failed.reason}`;
  }
  return '';
}

/** The human-readable report. `verbose` lists warnings as well as failures. */
export function formatReport(result, { verbose = false } = {}) {
  const lines = [];
  lines.push(`Contract of ${result.api} against ${result.baseUrl}`);
  lines.push(`target: ${result.target} (${result.detection})`);
  for (const note of TARGET_NOTES[result.target]) lines.push(`  ${note}`);
  lines.push(`token: ${result.tokenGiven ? 'given' : result.target === 'mock' ? 'none given; a placeholder is sent to the mock' : 'none given; secured operations get only the 401 check'}`);
  for (const note of result.notes || []) lines.push(`note: ${note}`);
  lines.push(`undeclared response fields: ${result.undeclared === 'fail' ? 'failures' : result.undeclared === 'off' ? 'not reported' : 'warnings'}`);
  lines.push('');
  const width = Math.max(9, ...result.operations.map((op) => op.operationId.length));
  const routeWidth = Math.max(5, ...result.operations.map((op) => `${op.method} ${op.path}`.length));
  lines.push(`${pad('operation', width)}  ${pad('route', routeWidth)}  checks  passed  failed  warned  skipped  first failure`);
  for (const op of result.operations) {
    const t = op.tally;
    const total = t.pass + t.fail + t.warn + t.skip;
    const mark = t.fail ? '✖' : '✔';
    const reason = firstProblem(op);
    lines.push(`${pad(op.operationId, width)}  ${pad(`${op.method} ${op.path}`, routeWidth)}  ${padLeft(total, 6)}  ${padLeft(t.pass, 6)}  ${padLeft(t.fail, 6)}  ${padLeft(t.warn, 6)}  ${padLeft(t.skip, 7)}  ${mark} ${reason.length > 100 ? `${reason.slice(0, 100)}…` : reason}`);
  }
  const findings = [];
  for (const op of result.operations) {
    for (const request of op.requests) {
      for (const check of request.checks) {
        if (check.outcome === 'fail' || (verbose && check.outcome === 'warn')) {
          findings.push(`${check.outcome === 'fail' ? '✖' : '⚠'} ${op.operationId} (${op.method} ${op.path}) › ${request.label} › ${check.name}: ${check.reason}`);
        }
      }
    }
  }
  if (findings.length) lines.push('', ...findings);
  const warnings = result.tally.warn;
  if (!verbose && warnings) lines.push('', `${warnings} warning${warnings === 1 ? '' : 's'} (--verbose lists them, the JUnit report has them)`);
  const { coverage } = result;
  const percent = coverage.total ? Math.round((coverage.exercised / coverage.total) * 100) : 0;
  lines.push('');
  lines.push(`coverage: ${coverage.exercised}/${coverage.total} operations exercised (${percent}%), success answer validated for ${coverage.successValidated}/${coverage.total}${coverage.selected !== coverage.total ? ` (${coverage.selected} selected)` : ''}`);
  const t = result.tally;
  lines.push(`checks: ${t.pass + t.fail + t.warn + t.skip} run, ${t.pass} passed, ${t.fail} failed, ${t.warn} warnings, ${t.skip} skipped, in ${(result.durationMs / 1000).toFixed(1)} s`);
  lines.push(result.ok ? '✔ the target keeps the contract' : `✖ the target breaks the contract: ${t.fail} failed check${t.fail === 1 ? '' : 's'}`);
  return lines.join('\n');
}

const xml = (text) => String(text ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c])
  // eslint-disable-next-line no-control-regex
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** JUnit XML: one test suite per operation, one test case per check of each request. */
export function toJUnit(result) {
  const t = result.tally;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="cloudapi-contract" tests="${t.pass + t.fail + t.warn + t.skip}" failures="${t.fail}" skipped="${t.skip}" time="${(result.durationMs / 1000).toFixed(3)}">`);
  for (const op of result.operations) {
    const o = op.tally;
    const time = op.requests.reduce((sum, r) => sum + (r.ms || 0), 0) / 1000;
    out.push(`  <testsuite name="${xml(`${op.operationId} (${op.method} ${op.path})`)}" tests="${o.pass + o.fail + o.warn + o.skip}" failures="${o.fail}" errors="0" skipped="${o.skip}" time="${time.toFixed(3)}">`);
    out.push(`    <properties><property name="target" value="${xml(result.target)}"/><property name="security" value="${xml(op.security)}"/></properties>`);
    for (const request of op.requests) {
      for (const check of request.checks) {
        const name = xml(`${request.label} › ${check.name}`);
        const head = `    <testcase classname="${xml(`cloudapi-contract.${op.operationId}`)}" name="${name}" time="${((request.ms || 0) / 1000).toFixed(3)}"`;
        const where = request.url ? `${request.method} ${request.url} → ${request.status ?? 'no answer'}` : '';
        if (check.outcome === 'fail') out.push(`${head}><failure message="${xml(check.reason)}" type="${xml(check.name)}">${xml(`${where}\n${check.reason}`)}</failure></testcase>`);
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
