// `npm run release:check`: refuses a release that breaks clients without a major version. Compares
// the last recorded release of the spec (spec/releases, written by `npm run release:record`: no
// git tag or history is needed) with the working tree through the breaking-change engine. When
// something breaks, @cloudapi/spec must go up a major version: either spec/package.json already
// has a higher major than that release (after `changeset version`, as the release workflow sees
// it), or a pending changeset bumps it `major` (on a branch, before the release pull request).
// Exit status: 0 allowed, 1 refused (every breaking change listed), 2 the check could not be made.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import readChangesets from '@changesets/read';
import { changesBetween, groupChanges } from '@cloudapi/spec/changelog';
import { command, parse } from '@cloudapi/spec/cli';
import { releaseHistory } from '@cloudapi/spec/release-history';

const SPEC_PACKAGE = '@cloudapi/spec';
const options = parse(command('release:check', 'Refuses a breaking API change that comes without a major version of @cloudapi/spec.')
  .option('--repo <dir>', 'the checkout to check (default this one)')
  .addHelpText('after', '\nExit status: 0 allowed, 1 a breaking change without a major version, 2 the check could not be made.'));

const repo = path.resolve(options.repo ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const major = (version) => Number(String(version).split('.')[0]);

try {
  const history = await releaseHistory({ specDir: path.join(repo, 'spec') });
  if (!history.last) {
    console.log('✔ release check: no release recorded in spec/releases to compare with.');
    process.exit(0);
  }
  const base = history.last.version;
  const breaking = changesBetween(history.bundleAt(base), history.current).filter((c) => c.breaking);
  if (!breaking.length) {
    console.log(`✔ release check: nothing breaks clients of ${base}.`);
    process.exit(0);
  }
  const version = JSON.parse(readFileSync(path.join(repo, 'spec', 'package.json'), 'utf8')).version;
  const majorChangesets = (await readChangesets(repo))
    .filter((changeset) => changeset.releases.some((release) => release.name === SPEC_PACKAGE && release.type === 'major'));
  const summary = `${breaking.length} breaking change(s) since ${base}`;
  if (major(version) > major(base)) {
    console.log(`✔ release check: ${summary}, and ${SPEC_PACKAGE} ${version} is a new major version.`);
    process.exit(0);
  }
  if (majorChangesets.length) {
    console.log(`✔ release check: ${summary}, and .changeset/${majorChangesets[0].id}.md bumps ${SPEC_PACKAGE} major.`);
    process.exit(0);
  }
  console.error(`✖ release check: ${summary}, but ${SPEC_PACKAGE} stays on major ${major(version)} (${version}) and no changeset bumps it major:`);
  for (const c of groupChanges(breaking)) {
    console.error(`  ✖ ${c.operations.map((o) => `${o.operation} (${o.operationId})`).join(', ')}${c.field ? ` ${c.field}` : ''}: ${c.message}`);
  }
  console.error(`Add a changeset that bumps ${SPEC_PACKAGE} major (\`npx changeset\`, choose major), or undo the breaking change.`);
  process.exit(1);
} catch (error) {
  console.error(`✖ release check could not be made: ${String(error.stderr || error.message).trim()}`);
  process.exit(2);
}
