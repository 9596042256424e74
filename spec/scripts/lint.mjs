// `npm run lint`: the house style guide over the sources (spec/openapi.yaml and every file it
// references) and over the bundle. Any finding, error or warning, fails: lint must be clean.
// Each target is linted in its own worker thread, so the two run side by side; a finding in the
// bundle also names the source file and line it comes from.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultBundleFile } from '../lib/bundle.mjs';
import { command, parse } from './cli.mjs';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundleFile = defaultBundleFile('openapi.yaml');

const program = command('lint', 'Lints the spec with the house style guide (Redocly and Spectral); any finding fails.')
  .argument('[targets...]', 'files to lint, relative to spec/ or absolute', ['openapi.yaml', path.relative(specDir, bundleFile)])
  .addHelpText('after', '\nExit status: 0 when clean, 1 on any finding, 2 on a usage error or a missing target.');
parse(program);
const targets = program.processedArgs[0];

for (const target of targets) {
  if (!existsSync(path.resolve(specDir, target))) {
    console.error(`lint: ${target} does not exist${path.resolve(specDir, target) === bundleFile ? ' (run `npm run build` first)' : ''}.`);
    process.exit(2);
  }
}

// The linters load after the command line is read: --help and usage errors answer at once.
const { startLintWorker } = await import('./run-linters.mjs');
const { createSourceIndex } = await import('../lib/sources.mjs');
const { countByFile, formatFinding, sortFindings } = await import('./findings.mjs');

const started = Date.now();
const results = await Promise.all(targets.map(async (target) => {
  const worker = startLintWorker();
  try {
    return await worker.lint(target);
  } finally {
    await worker.close();
  }
}));
const sources = createSourceIndex(specDir);
const findings = sortFindings(results.flat()).map((f) => {
  if (f.file !== bundleFile) return f;
  const from = sources.locate(f.pointer);
  return { ...f, source: { ...from, file: path.join(specDir, from.file) } };
});

for (const f of findings) console.log(formatFinding(f));
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (findings.length) {
  console.log(`\n✖ ${countByFile(findings)} (${seconds} s). Errors and warnings both fail: the house style guide is in spec/redocly.yaml and spec/.spectral.yaml, and CONTRIBUTING.md explains each rule.`);
  process.exit(1);
}
console.log(`✔ lint clean: ${targets.join(', ')} (Redocly recommended-strict + Spectral oas/all + house rules, ${seconds} s)`);
