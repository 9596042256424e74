// `npm run lint`: the house style guide over the sources (spec/openapi.yaml and every file it
// references) and over the bundle. Any finding, error or warning, fails: lint must be clean.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { lintFiles, specDir } from './run-linters.mjs';

const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['openapi.yaml', 'dist/openapi.yaml'];
for (const target of targets) {
  if (!existsSync(path.join(specDir, target))) {
    console.error(`lint: ${target} does not exist${target.startsWith('dist/') ? ' (run `npm run build` first)' : ''}.`);
    process.exit(2);
  }
}

const started = Date.now();
const problems = await lintFiles(targets);
const seen = new Set();
const unique = problems.filter((p) => {
  const key = `${p.tool}|${p.rule}|${p.file}|${p.line}|${p.message}`;
  return !seen.has(key) && seen.add(key);
});
unique.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
for (const p of unique) {
  console.log(`${path.relative(process.cwd(), p.file)}:${p.line}:${p.column}  ${p.severity}  ${p.tool}/${p.rule}\n    ${p.message}`);
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (unique.length) {
  console.log(`\n✖ ${unique.length} problem(s) in ${targets.join(', ')} (${seconds}s). Errors and warnings both fail: the house style guide is in spec/redocly.yaml and spec/.spectral.yaml, and CONTRIBUTING.md explains each rule.`);
  process.exit(1);
}
console.log(`✔ lint clean: ${targets.join(', ')} (Redocly recommended-strict + Spectral oas/all + house rules, ${seconds}s)`);
