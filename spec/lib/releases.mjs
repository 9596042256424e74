// The spec's release records: for each released version of @cloudapi/spec, the bundle as it was
// released (`spec/releases/<version>.json`) and the commit it was made from, listed in
// `spec/releases/releases.json`. They are written by `npm run release:record` and checked by a test
// that re-bundles each commit (spec/DECISIONS.md section 17). Reading them needs no git: the API
// changelog and the semver gate work the same on a shallow clone, a copy without `.git` and the
// published package.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** @typedef {{ version: string, commit: string, bundle: string }} Release */

/** A release record that cannot be read: the message names the file and the field. */
export class ReleaseRecordError extends Error {}

export const RELEASES_FOLDER = 'releases';
export const RELEASES_INDEX = 'releases.json';
const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** The release folder of a spec folder. @param {string} specDir */
export const releasesDir = (specDir) => path.join(specDir, RELEASES_FOLDER);

/**
 * Orders two versions (`4.115.0`): negative when `a` is older.
 * @param {string} a @param {string} b @returns {number}
 */
export function compareVersions(a, b) {
  const [x, y] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!x || !y) throw new ReleaseRecordError(`not a release version: "${x ? b : a}" (expected MAJOR.MINOR.PATCH)`);
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  return 0;
}

/**
 * The list under `key` in a JSON file of the releases folder, with the file's path; an empty list
 * when the file does not exist. Not JSON, or no list there, is an error naming the file.
 * @param {string} specDir @param {string} name @param {string} key
 * @returns {{ file: string, list: any[] }}
 */
function readListFile(specDir, name, key) {
  const file = path.join(releasesDir(specDir), name);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return { file, list: [] };
    throw error;
  }
  /** @type {unknown} */
  let list;
  try {
    list = JSON.parse(text)[key];
  } catch (error) {
    throw new ReleaseRecordError(`${file} is not valid JSON: ${/** @type {Error} */ (error).message}`);
  }
  if (!Array.isArray(list)) throw new ReleaseRecordError(`${file}: "${key}" must be a list`);
  return { file, list };
}

/**
 * The recorded releases, oldest first; none when the folder has no index. A malformed index is
 * an error naming the file and the field.
 * @param {string} specDir
 * @returns {Release[]}
 */
export function readReleases(specDir) {
  const { file, list } = readListFile(specDir, RELEASES_INDEX, 'releases');
  list.forEach((release, i) => {
    for (const field of ['version', 'commit', 'bundle']) {
      if (typeof release?.[field] !== 'string') throw new ReleaseRecordError(`${file}: releases[${i}].${field} must be a string`);
    }
    if (!SEMVER.test(release.version)) throw new ReleaseRecordError(`${file}: releases[${i}].version "${release.version}" is not MAJOR.MINOR.PATCH`);
  });
  return /** @type {Release[]} */ ([...list].sort((a, b) => compareVersions(a.version, b.version)));
}

/**
 * The bundle of a recorded release.
 * @param {string} specDir @param {Release} release
 * @returns {any}
 */
export function readReleaseBundle(specDir, release) {
  const file = path.join(releasesDir(specDir), release.bundle);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ReleaseRecordError(`the bundle of release ${release.version} (${file}) cannot be read: ${/** @type {Error} */ (error).message}`);
  }
}

/**
 * Breaking changes made on purpose since a release and accepted without a major version, each
 * with its reason (`spec/releases/accepted-breaking.json`, as oasdiff's `--err-ignore` file):
 * `npm run release:check` passes them and refuses everything else, and refuses an entry that no
 * longer matches a change (it would silently accept a later one). Written by
 * `npm run release:check -- --accept "<reason>"`, reviewed like any spec change.
 * @typedef {{ since: string, code: string, field: string, message: string, operations: string[], reason: string }} AcceptedBreaking
 */
export const ACCEPTED_BREAKING = 'accepted-breaking.json';

/** @param {string} specDir @returns {AcceptedBreaking[]} */
export function readAcceptedBreaking(specDir) {
  const { file, list } = readListFile(specDir, ACCEPTED_BREAKING, 'accepted');
  list.forEach((entry, i) => {
    for (const field of ['since', 'code', 'field', 'message', 'reason']) {
      if (typeof entry?.[field] !== 'string') throw new ReleaseRecordError(`${file}: accepted[${i}].${field} must be a string`);
    }
    if (!entry.reason.trim()) throw new ReleaseRecordError(`${file}: accepted[${i}].reason must say why the change is accepted without a major version`);
    if (!Array.isArray(entry.operations) || !entry.operations.length || entry.operations.some((o) => typeof o !== 'string')) {
      throw new ReleaseRecordError(`${file}: accepted[${i}].operations must list the operationIds the change reaches`);
    }
  });
  return list;
}

/**
 * Sorts the breaking changes since release `since` into those an entry accepts and the others,
 * and names the entries of that release (or their operations) that match no change any more;
 * entries of another release never apply (`elsewhere`: kept for the record until removed).
 * @template {{ code: string, field: string, message: string, operationId: string }} C
 * @param {C[]} changes @param {AcceptedBreaking[]} accepted @param {string} since
 * @returns {{ open: C[], accepted: Array<{ change: C, entry: AcceptedBreaking }>, stale: Array<{ entry: AcceptedBreaking, operations: string[] }>, elsewhere: AcceptedBreaking[] }}
 */
export function sortOutBreaking(changes, accepted, since) {
  const entries = accepted.filter((entry) => entry.since === since);
  const used = new Map(entries.map((entry) => [entry, new Set()]));
  const open = [];
  const taken = [];
  for (const change of changes) {
    const entry = entries.find((e) => e.code === change.code && e.field === change.field && e.message === change.message && e.operations.includes(change.operationId));
    if (!entry) { open.push(change); continue; }
    used.get(entry)?.add(change.operationId);
    taken.push({ change, entry });
  }
  const stale = entries.map((entry) => ({ entry, operations: entry.operations.filter((o) => !used.get(entry)?.has(o)) })).filter((s) => s.operations.length);
  return { open, accepted: taken, stale, elsewhere: accepted.filter((entry) => entry.since !== since) };
}
