// The API changelog page of the site (dist/changelog.html): the sections of spec/lib/changelog.mjs
// as tables, one row per change with its kind, the operations it reaches and the field, breaking
// ones marked. A plain page with its style inline: it renders with no network and no script.
import { groupChanges, LISTED_OPERATIONS as LISTED } from '@cloudapi/spec/changelog';

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

const operation = (o) => `<code>${escape(o.operation)}</code>${o.operationId ? ` <small>${escape(o.operationId)}</small>` : ''}`;

// A change made to many operations shows the first few; the rest unfold (<details>, no script).
function operationsCell(operations) {
  const shown = operations.slice(0, LISTED).map(operation).join('<br>');
  if (operations.length <= LISTED) return shown;
  return `${shown}<details><summary>and ${operations.length - LISTED} more</summary>${operations.slice(LISTED).map(operation).join('<br>')}</details>`;
}

function row(change) {
  return `<tr class="change" data-kind="${change.kind}" data-breaking="${change.breaking}" data-operations="${change.operations.length}">`
    + `<td><span class="kind kind-${change.kind}">${change.kind}</span>${change.breaking ? ' <strong class="breaking">Breaking</strong>' : ''}${change.level === 'warning' ? ' <span class="warning">check</span>' : ''}</td>`
    + `<td>${operationsCell(change.operations)}</td>`
    + `<td>${change.field ? `<code>${escape(change.field)}</code>` : '—'}</td>`
    + `<td>${escape(change.message)}</td></tr>`;
}

function section(part) {
  const breaking = part.changes.filter((c) => c.breaking).length;
  const head = `<h2 id="${escape(part.to === 'the working tree' ? 'unreleased' : part.to)}">${escape(part.title)}</h2>`
    + `<p>Compared <code>${escape(part.from)}</code> with ${part.unreleased ? escape(part.to) : `<code>${escape(part.to)}</code>`}: ${part.changes.length} change(s), ${breaking} breaking.</p>`;
  if (!part.changes.length) return `<section>${head}<p>No change to the API.</p></section>`;
  return `<section>${head}<table><thead><tr><th>Change</th><th>Operations</th><th>Field</th><th>What</th></tr></thead><tbody>${groupChanges(part.changes).map(row).join('')}</tbody></table></section>`;
}

/**
 * @param {{ releases: string[], sections: any[] }} changelog what apiChangelog() returned
 * @param {{ title: string, version: string }} api
 */
export function changelogPage(changelog, { title, version }) {
  let body = changelog.sections.map(section).join('\n');
  if (!changelog.releases.length) body = '<p>No release recorded yet: the first release starts the list.</p>';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}: API changelog</title>
<link rel="icon" href="data:,">
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 24px; color: #1f2328; }
  a { color: #0b6e4f; }
  table { border-collapse: collapse; width: 100%; margin: 12px 0 32px; }
  th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid #ddd; }
  code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
  .kind { display: inline-block; min-width: 80px; font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; }
  .kind-added { color: #0b6e4f; } .kind-removed { color: #a4161a; } .kind-deprecated { color: #8a5a00; }
  .breaking { background: #a4161a; color: #fff; border-radius: 3px; padding: 0 6px; font-size: 12px; }
  .warning { background: #f6d860; border-radius: 3px; padding: 0 6px; font-size: 12px; }
</style>
</head>
<body>
<p><a href="index.html">← ${escape(title)} ${escape(version)} reference</a></p>
<h1>API changelog</h1>
<p>Every change to the API between consecutive releases and from the last release to this build,
found by the breaking-change engine at build time. <strong class="breaking">Breaking</strong> marks a change
that can break a client written against the earlier release.</p>
${body}
</body>
</html>
`;
}
