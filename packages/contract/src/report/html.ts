// contract-reports/index.html: the run as a page to look at. A summary (validated N/M, failures),
// each failure with its request as a curl line, and a row per operation with the statuses it
// declares, which of them the run saw, and its checks. One self-contained file: inline CSS, no
// script, nothing fetched (its Content-Security-Policy forbids both). Every value is escaped: the
// target's answers reach the page through reasons, URLs and curl lines, and are untrusted.
import type { Outcome } from '../checks/outcome.js';
import { summaryLine, xml as escape } from './report.js';
import type { ContractResult, OperationResult } from '../run/types.js';
import { statusCoverage } from '../checks/status-coverage.js';

const STYLE = `
:root { color-scheme: light; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --dim: #6e7781; --line: #d0d7de; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1f2328; }
h1 { font-size: 1.35rem; margin: 0 0 .25rem; } h2 { font-size: 1.1rem; margin: 1.75rem 0 .5rem; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.summary-line { font-weight: 600; padding: .5rem .75rem; border-radius: 6px; background: #f6f8fa; border-left: 4px solid var(--dim); }
.summary-line.exit-0 { border-color: var(--ok); } .summary-line.exit-1 { border-color: var(--bad); } .summary-line.exit-2 { border-color: var(--warn); }
.figures { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: .75rem 0; }
.figures div { min-width: 9rem; } .figures dt { color: var(--dim); font-size: 12px; } .figures dd { margin: 0; font-size: 1.15rem; font-weight: 600; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { font-size: 12px; color: var(--dim); } #operations-table > thead th { position: sticky; top: 0; background: #fff; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } td.failed:not([data-count="0"]) { color: var(--bad); font-weight: 700; }
tr.failed > td:first-child { border-left: 4px solid var(--bad); } tr.validated > td:first-child { border-left: 4px solid var(--ok); }
tr.unproven > td:first-child { border-left: 4px solid var(--warn); }
.route { color: var(--dim); font-size: 12px; word-break: break-all; }
.status { display: inline-block; margin: 0 .25rem .25rem 0; padding: 0 .4rem; border-radius: 10px; font: 12px ui-monospace, monospace; border: 1px solid var(--line); }
.status.seen { background: #dafbe1; border-color: #4ac26b; } .status.unseen { color: var(--dim); border-style: dashed; }
.status.undeclared { background: #ffebe9; border-color: var(--bad); }
details summary { cursor: pointer; color: var(--dim); } .checks td { border: 0; padding: .1rem .4rem; font-size: 12.5px; }
.outcome-fail { color: var(--bad); font-weight: 600; } .outcome-warn { color: var(--warn); }
.failure { margin: 0 0 1rem; padding: .5rem .75rem; border-left: 4px solid var(--bad); background: #fff8f8; }
.failure p { margin: 0 0 .35rem; } .reason { white-space: pre-wrap; word-break: break-word; }
pre.curl { margin: 0; padding: .5rem; background: #f6f8fa; white-space: pre-wrap; word-break: break-all; }
.muted { color: var(--dim); } td.verdict { white-space: nowrap; } td.checks { min-width: 8rem; }
`;

type Tally = Record<Outcome, number>;
const OUTCOMES: Outcome[] = ['pass', 'fail', 'warn', 'skip'];
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Each check an operation ran, by name, with how often it passed, failed, warned and was skipped. */
function checksByName(op: OperationResult): Map<string, Tally> {
  const byName = new Map<string, Tally>();
  for (const request of op.requests) for (const check of request.checks) {
    const tally = byName.get(check.name) ?? { pass: 0, fail: 0, warn: 0, skip: 0 };
    tally[check.outcome]++;
    byName.set(check.name, tally);
  }
  return byName;
}

function statusCells(op: OperationResult): string {
  const coverage = statusCoverage(op.declaredStatuses, op.seenStatuses);
  const declared = coverage.declared.map(({ status, seen }) => {
    const title = seen.length ? `seen: ${seen.join(', ')}` : 'not seen in this run';
    return `<span class="status ${seen.length ? 'seen' : 'unseen'}" data-status="${escape(status)}" title="${escape(title)}">${escape(status)}</span>`;
  }).join('');
  const undeclared = new Set(coverage.undeclared);
  const seen = op.seenStatuses.map((status) => (undeclared.has(status)
    ? `<span class="status undeclared" data-status="${status}" title="not declared by the operation">${status}</span>`
    : `<span class="status seen" data-status="${status}">${status}</span>`)).join('');
  return `<td class="declared">${declared || '<span class="muted">none</span>'}</td><td class="seen">${seen || '<span class="muted">none</span>'}</td>`;
}

function checksCell(op: OperationResult): string {
  const byName = [...checksByName(op)];
  if (!byName.length) return '<td class="checks"><span class="muted">none</span></td>';
  const rows = byName.map(([name, t]) => {
    const worst = t.fail ? 'fail' : t.warn ? 'warn' : t.pass ? 'pass' : 'skip';
    const counts = OUTCOMES.map((o) => `<td class="n" data-outcome="${o}">${t[o] || ''}</td>`).join('');
    return `<tr class="outcome-${worst}" data-check="${escape(name)}"><td>${escape(name)}</td>${counts}</tr>`;
  }).join('');
  const head = '<tr><th>check</th><th>passed</th><th>failed</th><th>warned</th><th>skipped</th></tr>';
  return `<td class="checks"><details${op.tally.fail ? ' open' : ''}><summary>${plural(byName.length, 'check')}</summary><table class="checks">${head}${rows}</table></details></td>`;
}

function verdictOf(op: OperationResult): { className: string; text: string } {
  if (op.tally.fail) return { className: 'failed', text: `✖ ${plural(op.tally.fail, 'failed check')}` };
  if (op.successValidated) return { className: 'validated', text: '✔ success validated' };
  return { className: 'unproven', text: `· not proven${op.unproven ? `: ${op.unproven}` : ''}` };
}

function operationRow(op: OperationResult): string {
  const t = op.tally;
  const verdict = verdictOf(op);
  const counts = [['ran', t.pass + t.fail + t.warn], ['passed', t.pass], ['failed', t.fail], ['warned', t.warn], ['skipped', t.skip]] as const;
  return `<tr class="operation ${verdict.className}" data-operation="${escape(op.operationId)}">`
    + `<td><code class="operation-id">${escape(op.operationId)}</code><div class="route">${escape(`${op.method} ${op.path}`)}</div></td>`
    + statusCells(op)
    + counts.map(([name, n]) => `<td class="n ${name}" data-count="${n}">${n}</td>`).join('')
    + checksCell(op)
    + `<td class="verdict">${escape(verdict.text)}</td></tr>`;
}

function failureItems(result: ContractResult): string[] {
  const items: string[] = [];
  for (const op of result.operations) for (const request of op.requests) for (const check of request.checks) {
    if (check.outcome !== 'fail') continue;
    const where = `${op.operationId} (${op.method} ${op.path}) › ${request.label} › ${check.name}`;
    const answered = request.url ? `${request.method} ${request.url} → ${request.status ?? 'no answer'}` : '';
    const injected = check.injected ? ` <span class="muted">(injected by the target: x-fault ${escape(check.injected)})</span>` : '';
    const curl = request.curl
      ? `<pre class="curl"><code>${escape(request.curl)}</code></pre>`
      : '<p class="muted no-request">no single request to repeat: the check looks at several answers</p>';
    items.push(`<li class="failure" data-operation="${escape(op.operationId)}" data-check="${escape(check.name)}">`
      + `<p><strong>${escape(where)}</strong>${injected}</p>${answered ? `<p class="answered muted">${escape(answered)}</p>` : ''}`
      + `<p class="reason">${escape(check.reason)}</p>${curl}</li>`);
  }
  return items;
}

function figures(result: ContractResult): string {
  const { coverage, tally } = result;
  let declared = 0;
  let seen = 0;
  for (const op of result.operations) {
    const entries = statusCoverage(op.declaredStatuses, op.seenStatuses).declared;
    declared += entries.length;
    seen += entries.filter((e) => e.seen.length).length;
  }
  const items: [string, string, string][] = [
    ['validated', 'success validated', `${coverage.successValidated}/${coverage.selected}`],
    ['failures', 'failed checks', String(tally.fail)],
    ['exercised', 'operations exercised', `${coverage.exercised}/${coverage.selected}`],
    ['statuses', 'declared statuses seen', `${seen}/${declared}`],
    ['checks', 'checks ran (passed, warned)', `${tally.pass + tally.fail + tally.warn} (${tally.pass}, ${tally.warn})`],
    ['skipped', 'checks skipped', String(tally.skip)],
    ['time', 'time', `${(result.durationMs / 1000).toFixed(1)} s`],
    ['seed', 'seed', String(result.seed)],
  ];
  return `<dl class="figures">${items.map(([id, label, value]) => `<div data-figure="${id}"><dt>${label}</dt><dd>${escape(value)}</dd></div>`).join('')}</dl>`;
}

const list = (className: string, entries: string[]) => `<ul class="${className}">${entries.map((e) => `<li>${escape(e)}</li>`).join('')}</ul>`;

/** The HTML report of a run: one self-contained page, the same result as the JSON report. */
export function toHtml(result: ContractResult): string {
  const failures = failureItems(result);
  const title = `Contract of ${result.api} against ${result.baseUrl}`;
  const body: string[] = [
    `<header><h1>${escape(title)}</h1>`,
    `<p class="muted">target: ${escape(result.target ?? 'unknown')} (${escape(result.detection)}); token: ${escape(result.token)}${result.shard ? `; shard ${result.shard.index}/${result.shard.count}` : ''}</p>`,
    `<p class="summary-line exit-${result.exitCode}" id="summary" data-exit-code="${result.exitCode}">${escape(summaryLine(result))}</p>`,
    figures(result),
    result.abort ? `<p class="abort"><strong>The run stopped:</strong> ${escape(result.abort)}</p>` : '',
    ...(result.hints ?? []).map((hint) => `<p class="hint">hint: ${escape(hint)}</p>`),
    result.notes.length ? list('notes muted', result.notes) : '',
    '</header>',
  ];
  if (failures.length) body.push(`<section id="failures"><h2>Failures (${failures.length})</h2><ol>${failures.join('')}</ol></section>`);
  if (result.dryRun) body.push(`<section id="planned"><h2>Requests a run would send (none sent)</h2>${list('planned', result.planned)}</section>`);
  body.push('<section id="operations"><h2>Operations</h2>',
    '<p class="muted">Declared statuses are the operation\'s responses in the bundle, green where the run saw one; seen statuses are every status the target answered, red where the operation does not declare it. Ran counts the checks that passed, failed or warned.</p>',
    '<table id="operations-table"><thead><tr><th>operation</th><th>declared statuses</th><th>seen statuses</th><th>ran</th><th>passed</th><th>failed</th><th>warned</th><th>skipped</th><th>checks</th><th>result</th></tr></thead>',
    `<tbody>${result.operations.map(operationRow).join('')}</tbody></table></section>`);
  if (result.notRun.length) body.push(`<section id="not-run"><h2>Checks not run</h2>${list('not-run', result.notRun.map((n) => `${n.check}: ${n.reason}`))}</section>`);
  const { cleanup } = result;
  if (cleanup.removed.length || cleanup.leftBehind.length || cleanup.removedAfterCheck.length) {
    body.push(`<section id="cleanup"><h2>Clean-up</h2><p>removed ${plural(cleanup.removed.length, 'resource')} the run created, and ${cleanup.removedAfterCheck.length} that checks made on the way, right after them.</p>`,
      cleanup.leftBehind.length ? `<p><strong>Could not remove ${cleanup.leftBehind.length}:</strong></p>${list('left-behind', cleanup.leftBehind.map((l) => `${l.resource}: ${l.reason}`))}` : '', '</section>');
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style></head>
<body>
${body.filter(Boolean).join('\n')}
</body></html>
`;
}
