// `npm run changelog`: writes spec/CHANGELOG-API.md, every change of the API between consecutive
// release tags and from the last tag to the working tree (lib/changelog.mjs). `--check` writes
// nothing and exits 1 when the file is not what the spec and the tags make (the test
// spec/test/changelog.test.mjs runs it), 2 when it could not be made.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { command, parse } from './cli.mjs';

const options = parse(command('changelog', 'Writes spec/CHANGELOG-API.md: the API changes between release tags (v*) and since the last one.')
  .option('--spec <dir>', 'the spec folder of a git checkout (default this one)')
  .option('--out <file>', 'where to write (default spec/CHANGELOG-API.md of that checkout)')
  .option('--check', 'write nothing; exit 1 when the file is out of date')
  .addHelpText('after', '\nExit status: 0 written (or up to date with --check), 1 out of date (--check), 2 could not be made.'));

const { BundleError, specDir: ownSpecDir } = await import('./bundler.mjs');
const { releaseHistory } = await import('./release-history.mjs');
const { changelogMarkdown } = await import('../lib/changelog.mjs');

const specDir = path.resolve(options.spec ?? ownSpecDir);
const out = path.resolve(options.out ?? path.join(specDir, 'CHANGELOG-API.md'));
let text;
try {
  text = changelogMarkdown(await (await releaseHistory({ specDir })).changelog());
} catch (error) {
  if (!(error instanceof BundleError) && !error.stderr) throw error;
  console.error(`changelog: ${String(error.stderr || error.message).trim()}`);
  process.exit(2);
}
const relative = path.relative(process.cwd(), out);
if (options.check) {
  let had = null;
  try { had = readFileSync(out, 'utf8'); } catch { /* missing: out of date */ }
  if (had !== text) {
    console.error(`✖ ${relative} is out of date with the spec and the release tags: run \`npm run changelog\` and commit it.`);
    process.exit(1);
  }
  console.log(`✔ ${relative} is up to date.`);
} else {
  writeFileSync(out, text);
  console.log(`✔ wrote ${relative}`);
}
