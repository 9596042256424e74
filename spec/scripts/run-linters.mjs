// Runs the real Redocly and Spectral CLIs over OpenAPI files and returns their findings in one
// shape: { tool, rule, severity, file, line, column, message }. Used by `npm run lint` and by the
// style-guide tests, so both exercise exactly the same configuration.
import path from 'node:path';
import { runTool, specDir, withoutBanners } from './tools.mjs';

export { specDir };

// Splits text holding several JSON values back to back (Redocly prints one report per linted
// file with nothing in between) into those values, skipping any banner text before the first one.
export function splitJsonValues(text) {
  const values = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if ((c === '}' || c === ']') && depth > 0) {
      depth--;
      if (depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return values;
}

function parseJsonReports(tool, { code, stdout, stderr }) {
  let reports = [];
  try { reports = splitJsonValues(stdout); } catch { reports = []; }
  if (reports.length === 0) throw new Error(`${tool} did not produce a report (exit ${code}).\n${withoutBanners(stderr || stdout)}`);
  return reports;
}

export async function runRedocly(files) {
  const result = await runTool('@redocly/cli', 'redocly', ['lint', ...files, '--format=json', '--config=redocly.yaml', '--max-problems=1000']);
  return parseJsonReports('redocly', result).flatMap((report) => report.problems || []).map((p) => {
    const loc = (p.location && p.location[0]) || {};
    return {
      tool: 'redocly',
      rule: p.ruleId,
      severity: p.severity === 'error' ? 'error' : 'warning',
      file: path.resolve(specDir, (loc.source && loc.source.ref) || files[0]),
      line: (loc.start && loc.start.line) || 1,
      column: (loc.start && loc.start.col) || 1,
      message: p.message,
    };
  });
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'];
// The multi-file sources (spec/openapi.yaml) get the house ruleset plus the overrides only they
// need (style/spectral-sources.yaml); everything else, the bundle included, the house ruleset.
const rulesetFor = (files) => (files.length === 1 && path.resolve(specDir, files[0]) === path.join(specDir, 'openapi.yaml')
  ? 'style/spectral-sources.yaml' : '.spectral.yaml');

export async function runSpectral(files) {
  const result = await runTool('@stoplight/spectral-cli', 'spectral', [
    'lint', ...files, '--format=json', `--ruleset=${rulesetFor(files)}`, '--fail-severity=hint', '--quiet',
  ]);
  if (result.stdout.trim() === '' && result.code === 0) return [];
  const [report] = parseJsonReports('spectral', result);
  return report.map((r) => ({
    tool: 'spectral',
    rule: r.code,
    severity: SPECTRAL_SEVERITY[r.severity] || 'error',
    file: path.resolve(specDir, r.source || files[0]),
    line: r.range.start.line + 1,
    column: r.range.start.character + 1,
    message: r.message,
  }));
}

// Spectral lints the files of one run one after the other, so each target of `npm run lint`
// (the sources, the bundle) gets its own process; many small files (the style tests) share one.
export async function lintFiles(files) {
  const spectralRuns = files.length <= 2 ? files.map((file) => [file]) : [files];
  const results = await Promise.all([runRedocly(files), ...spectralRuns.map((group) => runSpectral(group))]);
  return results.flat();
}
