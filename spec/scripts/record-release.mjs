// `npm run release:record -- --ref <tag or commit>`: records a release of the spec: the bundle of
// the spec at that commit (bundled by today's bundler) as spec/releases/<version>.json, the
// version being the one that commit's spec/package.json names, and its entry in
// spec/releases/releases.json. The API changelog and `npm run release:check` compare with the
// last recorded release. `--check` writes nothing and re-bundles every recorded release from its
// commit: exit 1 when a recorded file is not what that commit bundles to now (after a change of
// the bundler, record it again), 2 when it could not be checked (a shallow clone lacks the
// commit: `git fetch --unshallow`).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { command, parse } from './cli.mjs';

const options = parse(command('record-release', 'Records the spec at a commit as the release its spec/package.json names (spec/releases).')
  .option('--ref <ref>', 'the tag or commit the release was made from')
  .option('--check', 'write nothing; check that every recorded release is what its commit bundles to now')
  .option('--spec <dir>', 'the spec folder of a git checkout (default this one)')
  .addHelpText('after', '\nExit status: 0 recorded (or up to date with --check), 1 out of date (--check), 2 could not be made.'));

const fail = (message) => {
  console.error(`release:record: ${message}`);
  process.exit(2);
};
if (!options.check && !options.ref) fail('give --ref <tag or commit> (or --check).');

// The bundler loads Redocly: after the command line is read, so --help answers at once.
const { BundleError, bundleAtRef, gitLocation, specDir: ownSpecDir, writeAtomically } = await import('./bundler.mjs');
const { RELEASES_INDEX, compareVersions, readReleases, releasesDir } = await import('../lib/releases.mjs');

const specDir = path.resolve(options.spec ?? ownSpecDir);
const git = (where, ...args) => execFileSync('git', ['-C', where.repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const serialize = (value) => `${JSON.stringify(value, null, 2)}\n`;
const relative = (file) => path.relative(process.cwd(), file);

let where;
try {
  where = gitLocation(specDir);
} catch {
  fail(`${specDir} is not in a git checkout: releases are recorded from its history.`);
}

/** The bundle of the spec at a commit, as the file records it. */
async function bundled(commit) {
  try {
    return serialize(await bundleAtRef({ ...where, ref: commit }));
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    fail(`${error.message}\n(A shallow clone lacks older commits: \`git fetch --unshallow\`.)`);
  }
}

if (options.check) {
  const releases = readReleases(specDir);
  let stale = 0;
  for (const release of releases) {
    const file = path.join(releasesDir(specDir), release.bundle);
    const had = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (had === await bundled(release.commit)) {
      console.log(`✔ ${relative(file)}: release ${release.version} (${release.commit.slice(0, 7)}) is up to date.`);
      continue;
    }
    stale += 1;
    console.error(`✖ ${relative(file)} is not what ${release.commit.slice(0, 7)} bundles to now: run \`npm run release:record -- --ref ${release.commit}\` and commit it.`);
  }
  if (!releases.length) console.log('✔ no release recorded yet.');
  process.exit(stale ? 1 : 0);
}

let commit;
let version;
try {
  commit = git(where, 'rev-parse', `${options.ref}^{commit}`);
  version = JSON.parse(git(where, 'show', `${commit}:${where.prefix ? `${where.prefix}/` : ''}package.json`)).version;
} catch (error) {
  fail(`cannot read the spec's package.json at "${options.ref}": ${String(error.stderr || error.message).trim()}`);
}
const text = await bundled(commit);
const releases = readReleases(specDir).filter((r) => r.version !== version);
const entry = { version, commit, bundle: `${version}.json` };
// Both files or neither: the index never names a bundle that is not there.
writeAtomically(releasesDir(specDir), {
  [entry.bundle]: text,
  [RELEASES_INDEX]: serialize({ releases: [...releases, entry].sort((a, b) => compareVersions(a.version, b.version)) }),
});
console.log(`✔ recorded release ${version} from ${commit.slice(0, 7)} in ${relative(path.join(releasesDir(specDir), entry.bundle))}: run \`npm run changelog\` and commit both.`);
