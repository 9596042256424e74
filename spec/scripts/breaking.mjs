// `npm run breaking`: what a spec change breaks for clients. Compares the bundle in spec/dist
// (what you have now) with the bundle of a git ref (default HEAD, the last commit), or with a
// bundle file, and lists each breaking change with the operations it affects.
//
//   node scripts/breaking.mjs [--base REF | --base-file FILE] [--after FILE] [--repo DIR] [--fail] [--json]
//
// --fail exits 1 when something breaks (for CI on pull requests); without it the report is a
// warning and the exit code is 0.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { compareDocuments } from '../lib/breaking.mjs';
import { runTool, specDir, withoutBanners } from './tools.mjs';

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = process.argv[at + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value.`);
  return value;
}
function fail(message) {
  console.error(`breaking: ${message}`);
  process.exit(2);
}
const readDocument = (file) => (file.endsWith('.json') ? JSON.parse(readFileSync(file, 'utf8')) : parse(readFileSync(file, 'utf8')));

/** The bundle of the spec as it was at `ref`: its sources extracted with git and bundled with Redocly. */
async function bundleAtRef(repo, ref) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-base-'));
  try {
    // Where the spec lives inside a checkout (spec/), the same in the repository read.
    const prefix = path.relative(path.dirname(specDir), specDir).split(path.sep).join('/');
    const wanted = ['openapi.yaml', 'paths', 'components', 'redocly.yaml'].map((p) => `${prefix}/${p}`);
    try {
      const archive = execFileSync('git', ['-C', repo, 'archive', '--format=tar', ref, '--', ...wanted], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
      execFileSync('tar', ['-x', '-C', scratch], { input: archive });
    } catch (error) {
      fail(`cannot read the spec at "${ref}" from ${repo}: ${String(error.stderr || error.message).trim()}`);
    }
    const baseSpec = path.join(scratch, prefix);
    const out = path.join(scratch, 'bundle.yaml');
    const { code, stdout, stderr } = await runTool('@redocly/cli', 'redocly', ['bundle', 'openapi.yaml', '--output', out, '--config', 'redocly.yaml'], { cwd: baseSpec });
    if (code !== 0) fail(`the spec at "${ref}" does not bundle:\n${withoutBanners(`${stdout}\n${stderr}`)}`);
    return readDocument(out);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const afterFile = path.resolve(option('--after', path.join(specDir, 'dist', 'openapi.json')));
if (!existsSync(afterFile)) fail(`${afterFile} is missing: run \`npm run build\` first.`);
const baseFile = option('--base-file');
const ref = option('--base', 'HEAD');
const repo = option('--repo', null) ?? (() => {
  try { return execFileSync('git', ['-C', specDir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim(); } catch { return fail('not in a git checkout: use --base-file FILE.'); }
})();

const before = baseFile ? readDocument(path.resolve(baseFile)) : await bundleAtRef(repo, ref);
const after = readDocument(afterFile);
const { findings, added } = compareDocuments(before, after);
const baseName = baseFile ? path.relative(process.cwd(), path.resolve(baseFile)) : ref;

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ base: baseName, findings, added }, null, 2));
} else {
  // One line per change, with the operations it reaches (a shared schema reaches many).
  const groups = new Map();
  for (const f of findings) {
    const key = `${f.level}|${f.code}|${f.message}`;
    if (!groups.has(key)) groups.set(key, { ...f, operations: [] });
    groups.get(key).operations.push(f.operation);
  }
  const breaking = [...groups.values()].filter((g) => g.level === 'breaking');
  const warnings = [...groups.values()].filter((g) => g.level === 'warning');
  const list = (title, items, mark) => {
    if (!items.length) return;
    console.log(`\n${title}`);
    for (const g of items) {
      const ops = g.operations.length > 3 ? `${g.operations.slice(0, 3).join(', ')} and ${g.operations.length - 3} more` : g.operations.join(', ');
      console.log(`  ${mark} ${g.message}  [${g.code}]\n      ${ops}`);
    }
  };
  console.log(`Changes from ${baseName} to ${path.relative(process.cwd(), afterFile)}: ${breaking.length} breaking, ${warnings.length} to check, ${added.length} operation(s) added.`);
  list('Breaking for clients written against the base:', breaking, '✖');
  list('May affect clients:', warnings, '⚠');
  if (added.length) console.log(`\nAdded: ${added.slice(0, 8).join(', ')}${added.length > 8 ? ` and ${added.length - 8} more` : ''}`);
  if (!breaking.length && !warnings.length) console.log('✔ nothing breaks clients of the base.');
}
process.exit(process.argv.includes('--fail') && findings.some((f) => f.level === 'breaking') ? 1 : 0);
