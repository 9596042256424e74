// `npm run release:check`: refuses a release that breaks clients without a major version. Compares
// the last recorded release of the spec (spec/releases, written by `npm run release:record`: no
// git tag or history is needed) with the working tree through the breaking-change engine. When
// something breaks, @cloudapi/spec must go up a major version: either spec/package.json already
// has a higher major than that release (after `changeset version`, as the release workflow sees
// it), or a pending changeset bumps it `major` (on a branch, before the release pull request).
// A breaking change made on purpose can instead be accepted without a major version, with its
// reason, in spec/releases/accepted-breaking.json (`--accept "<reason>"` writes the open ones there);
// an accepted entry that matches no change any more is refused, so it cannot accept a later one.
// Exit status: 0 allowed, 1 refused (every breaking change listed), 2 the check could not be made.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import readChangesets from '@changesets/read';
import { changesBetween, groupChanges } from '@cloudapi/spec/changelog';
import { command, parse } from '@cloudapi/spec/cli';
import { releaseHistory } from '@cloudapi/spec/release-history';
import { ACCEPTED_BREAKING, readAcceptedBreaking, releasesDir, sortOutBreaking } from '@cloudapi/spec/releases';

const SPEC_PACKAGE = '@cloudapi/spec';
const options = parse(command('release:check', 'Refuses a breaking API change that comes without a major version of @cloudapi/spec.')
  .option('--repo <dir>', 'the checkout to check (default this one)')
  .option('--accept <reason>', `accept the breaking changes now open without a major version, writing them with this reason to spec/releases/${ACCEPTED_BREAKING}`)
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
  const specDir = path.join(repo, 'spec');
  const acceptedFile = path.join(releasesDir(specDir), ACCEPTED_BREAKING);
  const accepted = readAcceptedBreaking(specDir);
  const sorted = sortOutBreaking(changesBetween(history.bundleAt(base), history.current).filter((c) => c.breaking), accepted, base);
  if (options.accept) acceptOpen(sorted.open);
  if (sorted.stale.length) {
    console.error(`✖ release check: ${path.relative(repo, acceptedFile)} accepts changes that are not made any more (remove them, or they would accept a later change):`);
    for (const { entry, operations } of sorted.stale) console.error(`  ✖ since ${entry.since}: ${operations.join(', ')} ${entry.field}: ${entry.message}`);
    process.exit(1);
  }
  if (sorted.elsewhere.length) console.log(`  (${sorted.elsewhere.length} entries of ${path.relative(repo, acceptedFile)} accept changes since an older release: they no longer apply, remove them.)`);
  const breaking = sorted.open;
  const acceptedNote = sorted.accepted.length ? `, ${sorted.accepted.length} accepted in ${path.relative(repo, acceptedFile)}` : '';
  if (!breaking.length) {
    console.log(`✔ release check: nothing breaks clients of ${base} without a major version${acceptedNote}.`);
    process.exit(0);
  }
  const version = JSON.parse(readFileSync(path.join(repo, 'spec', 'package.json'), 'utf8')).version;
  const majorChangesets = (await readChangesets(repo))
    .filter((changeset) => changeset.releases.some((release) => release.name === SPEC_PACKAGE && release.type === 'major'));
  const summary = `${breaking.length} breaking change(s) since ${base}`;
  if (sorted.accepted.length) console.log(`  (${sorted.accepted.length} more accepted in ${path.relative(repo, acceptedFile)}, not counted here.)`);
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
  console.error(`Add a changeset that bumps ${SPEC_PACKAGE} major (\`npx changeset\`, choose major), undo the breaking change, or accept it on purpose: \`npm run release:check -- --accept "<why clients are not broken>"\`.`);
  process.exit(1);

  /** Writes the open breaking changes to the accepted list with the reason given, and exits. */
  function acceptOpen(open) {
    const reason = options.accept.trim();
    if (!reason) throw new Error('--accept needs the reason the changes are accepted without a major version');
    const added = groupChanges(open).map((c) => ({ since: base, code: c.code, field: c.field, message: c.message, operations: c.operations.map((o) => o.operationId), reason }));
    writeFileSync(acceptedFile, `${JSON.stringify({ accepted: [...accepted, ...added] }, null, 2)}\n`);
    console.log(`✔ release check: accepted ${open.length} breaking change(s) since ${base} in ${path.relative(repo, acceptedFile)}: review and commit it.`);
    process.exit(0);
  }
} catch (error) {
  console.error(`✖ release check could not be made: ${String(error.stderr || error.message).trim()}`);
  process.exit(2);
}
