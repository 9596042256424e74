// How lint findings are printed, the same in `npm run lint` and `npm run dev`:
//
//   components/schemas/regions/Region.yaml:12:3  error  redocly/rule/property-names-snake-case  (properties.siteType)
//       "siteType" should use snake_case, like every property name (e.g. "compute_id").
//
// `file:line:col` first (editors and terminals open it), then the rule, the offending node as a
// path inside the file, and the message; a finding in the bundle also names its source.
import path from 'node:path';
import { parsePointer } from '../lib/json-pointer.mjs';

/** `#/paths/~1volumes/get` → `paths./volumes.get`; the root is `(root)`. */
export function readablePointer(pointer) {
  const parts = parsePointer(pointer ?? '');
  return parts.length ? parts.join('.') : '(root)';
}

/** Findings sorted by file and position, each reported once. */
export function sortFindings(findings) {
  const seen = new Set();
  return findings
    .filter((f) => {
      const key = `${f.tool}|${f.rule}|${f.file}|${f.line}|${f.column}|${f.message}`;
      return !seen.has(key) && seen.add(key);
    })
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
}

/** One finding as two lines; `from` is where a bundle finding comes from in the sources. */
export function formatFinding(f, { cwd = process.cwd() } = {}) {
  const from = f.source ? `\n    from ${path.relative(cwd, f.source.file)}:${f.source.line}:${f.source.column}` : '';
  return `${path.relative(cwd, f.file)}:${f.line}:${f.column}  ${f.severity}  ${f.tool}/${f.rule}  (${readablePointer(f.pointer)})\n    ${f.message}${from}`;
}

/** `3 problems in Region.yaml (2), openapi.yaml (1)`: the files, most findings first. */
export function countByFile(findings, { cwd = process.cwd() } = {}) {
  const counts = new Map();
  for (const f of findings) {
    const file = path.relative(cwd, f.source?.file ?? f.file);
    counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  const files = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([file, n]) => `${file} (${n})`);
  return `${findings.length} problem${findings.length === 1 ? '' : 's'} in ${files.join(', ')}`;
}
