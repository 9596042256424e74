// The spec's release history as the API changelog and the release check read it: the release
// records of the spec folder (lib/releases.mjs: each released version's bundle, kept in the
// repository and the package, so no git history or tag is needed) and the bundle of the working
// tree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiChangelog } from '../lib/changelog.mjs';
import { ReleaseRecordError, readReleaseBundle, readReleases } from '../lib/releases.mjs';

const ownSpecDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The working tree's bundle, made by the bundler (loaded only then: it needs Redocly). @param {string} specDir */
async function bundleOf(specDir) {
  const { createBundler } = await import('./bundler.mjs');
  return (await (await createBundler({ specDir })).bundle()).document;
}

/**
 * @param {{ specDir?: string, current?: object }} [options] a spec folder (default this one);
 *   `current`, its working tree's bundle when the caller has it already (else it is bundled)
 */
export async function releaseHistory({ specDir = ownSpecDir, current: given } = {}) {
  const releases = readReleases(specDir);
  const bundles = new Map();
  /** The bundle of a recorded version. @param {string} version */
  function bundleAt(version) {
    const release = releases.find((r) => r.version === version);
    if (!release) throw new ReleaseRecordError(`no release ${version} is recorded in ${specDir}/releases (recorded: ${releases.map((r) => r.version).join(', ') || 'none'})`);
    if (!bundles.has(version)) bundles.set(version, readReleaseBundle(specDir, release));
    return bundles.get(version);
  }
  const current = given ?? await bundleOf(specDir);
  const versions = releases.map((r) => r.version);
  return { releases, last: releases.at(-1) ?? null, bundleAt, current, changelog: () => apiChangelog({ releases: versions, bundleAt, current }) };
}
