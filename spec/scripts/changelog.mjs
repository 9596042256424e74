// `npm run changelog`: writes spec/CHANGELOG-API.md, every change of the API between consecutive
// recorded releases (spec/releases, lib/releases.mjs) and from the last one to the working tree
// (lib/changelog.mjs). `--check` writes nothing and exits 1 when the file is not what the spec and
// its release records make (the test spec/test/changelog.test.mjs runs it), 2 when it could not
// be made.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { command, parse } from './cli.mjs';

const options = parse(command('changelog', 'Writes spec/CHANGELOG-API.md: the API changes between recorded releases and since the last one.')
  .option('--spec <dir>', 'the spec folder (default this one)')
  .option('--out <file>', 'where to write (default spec/CHANGELOG-API.md of that checkout)')
  .option('--check', 'write nothing; exit 1 when the file is out of date')
  .addHelpText('after', '\nExit status: 0 written (or up to date with --check), 1 out of date (--check), 2 could not be made.'));

const { BundleError, specDir: ownSpecDir } = await import('./bundler.mjs');
const { releaseHistory } = await import('./release-history.mjs');
const { ReleaseRecordError } = await import('../lib/releases.mjs');
const { changelogMarkdown } = await import('../lib/changelog.mjs');

const specDir = path.resolve(options.spec ?? ownSpecDir);
const out = path.resolve(options.out ?? path.join(specDir, 'CHANGELOG-API.md'));
let text;
try {
  text = changelogMarkdown(await (await releaseHistory({ specDir })).changelog());
} catch (error) {
  if (!(error instanceof BundleError) && !(error instanceof ReleaseRecordError)) throw error;
  console.error(`changelog: ${error.message.trim()}`);
  process.exit(2);
}
const relative = path.relative(process.cwd(), out);
if (options.check) {
  let had = null;
  try { had = readFileSync(out, 'utf8'); } catch { /* missing: out of date */ }
  if (had !== text) {
    console.error(`✖ ${relative} is out of date with the spec and its release records: run \`npm run changelog\` and commit it.`);
    process.exit(1);
  }
  console.log(`✔ ${relative} is up to date.`);
} else {
  writeFileSync(out, text);
  console.log(`✔ wrote ${relative}`);
}
