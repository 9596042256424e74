// `npm run breaking`: what a spec change breaks for clients. Compares the bundle in spec/dist
// (what you have now) with the bundle of a git ref (default HEAD, the last commit), or with a
// bundle file, and lists each breaking change with the source file and line of what changed and
// the operations it affects. Without --fail the report is a warning and the exit status 0.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultBundleFile, loadBundle } from '../lib/bundle.mjs';
import { compareDocuments, formatChanges } from '../lib/breaking.mjs';
import { createSourceIndex } from '../lib/sources.mjs';
import { command, parse } from './cli.mjs';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const defaultAfter = defaultBundleFile();
const program = command('breaking', 'Lists what the current spec breaks for clients written against a git ref or a bundle file.')
  .option('--base <ref>', 'git ref to compare with', 'HEAD')
  .option('--base-file <file>', 'compare with this bundle (JSON or YAML) instead of a git ref')
  .option('--after <file>', 'the bundle to check', path.relative(process.cwd(), defaultAfter))
  .option('--repo <dir>', 'the git checkout that holds the spec (default: the one spec/ is in)')
  .option('--fail', 'exit 1 when something breaks (for CI)')
  .option('--json', 'print the findings as JSON')
  .addHelpText('after', '\nExit status: 0 (1 with --fail when something breaks), 2 when the comparison could not be made.');
const options = parse(program);

function fail(message) {
  console.error(`breaking: ${message}`);
  process.exit(2);
}

// Redocly loads after the command line is read: --help and usage errors answer at once.
const { BundleError, bundleAtRef, commitOf, gitLocation } = await import('./bundler.mjs');

const afterFile = path.resolve(options.after);
if (!existsSync(afterFile)) fail(`${afterFile} is missing: run \`npm run build\` first.`);

let before;
let baseName;
try {
  if (options.baseFile) {
    before = loadBundle(path.resolve(options.baseFile));
    baseName = path.relative(process.cwd(), path.resolve(options.baseFile));
  } else {
    let where;
    try {
      where = options.repo ? { repo: path.resolve(options.repo), prefix: gitLocation().prefix } : gitLocation();
    } catch {
      fail('not in a git checkout: use --base-file FILE.');
    }
    before = await bundleAtRef({ ...where, ref: options.base });
    const { hash, subject } = commitOf(where.repo, options.base);
    baseName = `${options.base} (${hash.slice(0, 7)} "${subject}")`;
  }
} catch (error) {
  if (!(error instanceof BundleError)) throw error;
  fail(error.message);
}
const after = loadBundle(afterFile);
const result = compareDocuments(before, after);

if (options.json) {
  console.log(JSON.stringify({ base: baseName, ...result }, null, 2));
} else {
  // File and line only when the bundle checked is the one built from the sources beside it.
  const sources = afterFile === defaultAfter ? createSourceIndex(specDir) : null;
  const locate = sources && ((pointer) => {
    const at = sources.locate(pointer);
    return { ...at, file: path.relative(process.cwd(), path.join(specDir, at.file)) };
  });
  const { lines, breaking, warnings } = formatChanges(result, { base: baseName, locate });
  console.log(`Compared ${path.relative(process.cwd(), afterFile)} with ${baseName}: ${breaking} breaking, ${warnings} to check, ${result.added.length} operation(s) added.\n`);
  console.log(lines.join('\n'));
}
process.exit(options.fail && result.findings.some((f) => f.level === 'breaking') ? 1 : 0);
