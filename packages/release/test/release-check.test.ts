// The release check (scripts/release-check.mjs, a step of the release workflow and of CI on pull
// requests) and the release records it reads (spec/releases, `npm run release:record`), on a
// temporary clone with no tag. The records are what their commits bundle to, and a tampered one
// is refused. A commit removes an operation: the check, comparing with the last recorded release
// (4.115.0), refuses it without a major version and names it, also on a copy with no git at all;
// keeps refusing a minor changeset, lets it pass with a major one or with @cloudapi/spec on the
// next major; and once that version is recorded as a release, compares with it instead.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, removeTree, repoRoot, run } from './support/npm.js';

let scratch: string;
let clone: string;
const removedPaths: string[] = [];
const specManifest = () => path.join(clone, 'spec', 'package.json');
const records = () => JSON.parse(readFileSync(path.join(clone, 'spec', 'releases', 'releases.json'), 'utf8')).releases as Array<{ version: string; commit: string }>;
const git = (...args: string[]) => execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const check = (repo = clone) => run(process.execPath, [path.join(repoRoot, 'scripts', 'release-check.mjs'), '--repo', repo], { cwd: repo, timeoutMs: 120_000 });
const record = (...args: string[]) => run(process.execPath, [path.join(repoRoot, 'spec', 'scripts', 'record-release.mjs'), '--spec', path.join(clone, 'spec'), ...args], { cwd: clone, timeoutMs: 120_000 });
const changeset = (bump: string) => writeFileSync(path.join(clone, '.changeset', 'api-change.md'), `---\n'@cloudapi/spec': ${bump}\n---\n\nRemoves ${removedPaths.join(', ')}.\n`);
const setVersion = (version: string) => {
  const manifest = JSON.parse(readFileSync(specManifest(), 'utf8'));
  writeFileSync(specManifest(), `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
};

/** The last path item of the root document goes, as a designer would remove it. */
function removeLastPath() {
  const root = path.join(clone, 'spec', 'openapi.yaml');
  const doc = parseDocument(readFileSync(root, 'utf8'));
  const removed = (doc.get('paths') as any).items.at(-1).key.value as string;
  doc.deleteIn(['paths', removed]);
  writeFileSync(root, doc.toString());
  git('commit', '--quiet', '-am', `Removes ${removed}`);
  removedPaths.push(removed);
  return removed;
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-release-check-'));
  clone = path.join(scratch, 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-tags', repoRoot, clone], { stdio: 'ignore' });
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Release check test');
}, 60_000);

afterAll(() => removeTree(scratch));

describe('the release records', () => {
  it('are what their commits bundle to now, and a tampered one is refused with the command that fixes it', async () => {
    expect(records().map((r) => r.version)).toContain('4.115.0');
    const fresh = await record('--check');
    expect(fresh.code, describeRun('record-release --check', fresh)).toBe(0);
    const file = path.join(clone, 'spec', 'releases', '4.115.0.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"4.115.0"', '"4.115.1"'));
    const tampered = await record('--check');
    expect(tampered.code, describeRun('record-release --check', tampered)).toBe(1);
    expect(tampered.stderr).toMatch(/4\.115\.0\.json is not what [0-9a-f]{7} bundles to now: run `npm run release:record -- --ref [0-9a-f]{40}`/);
    git('checkout', '--quiet', '--', 'spec/releases');
  }, 240_000);
});

describe('the release check', () => {
  const acceptedFile = () => path.join(clone, 'spec', 'releases', 'accepted-breaking.json');
  const acceptedEntries = () => JSON.parse(readFileSync(acceptedFile(), 'utf8')).accepted as Array<{ since: string; operations: string[]; message: string; reason: string }>;

  it('passes the breaking changes accepted on purpose with their reason, and refuses an entry that matches no change', async () => {
    expect(acceptedEntries().length).toBeGreaterThan(0);
    expect(acceptedEntries().every((e) => e.since === '4.115.0' && e.reason.length > 20)).toBe(true);
    const passed = await check();
    expect(passed.code, describeRun('release-check', passed)).toBe(0);
    expect(passed.stdout).toMatch(/nothing breaks clients of 4\.115\.0 without a major version, \d+ accepted in spec\/releases\/accepted-breaking\.json/);
    const original = readFileSync(acceptedFile(), 'utf8');
    // Without the file, the same changes are refused.
    rmSync(acceptedFile());
    const refused = await check();
    expect(refused.code, describeRun('release-check', refused)).toBe(1);
    expect(refused.stderr).toMatch(/maxItems none → 100/);
    // An entry naming an operation the change does not reach is stale: refused, named.
    const entries = JSON.parse(original).accepted;
    entries[0].operations.push('listRegions');
    writeFileSync(acceptedFile(), JSON.stringify({ accepted: entries }));
    const stale = await check();
    expect(stale.code, describeRun('release-check', stale)).toBe(1);
    expect(stale.stderr).toMatch(/accepts changes that are not made any more[^]*listRegions/);
    writeFileSync(acceptedFile(), original);
  }, 240_000);

  it('refuses a removed operation without a major version, naming it, compared with release 4.115.0', async () => {
    const removed = removeLastPath();
    const result = await check();
    expect(result.code, describeRun('release-check', result)).toBe(1);
    expect(result.stderr).toContain('breaking change(s) since 4.115.0');
    expect(result.stderr).toMatch(new RegExp(`${removed.replace(/[{}]/g, '\\$&')}[^\\n]*was removed`));
  }, 120_000);

  it('gives the same verdict on a copy with no git history', async () => {
    const copy = path.join(scratch, 'copy');
    cpSync(clone, copy, { recursive: true, filter: (from) => path.basename(from) !== '.git' });
    const result = await check(copy);
    expect(result.code, describeRun('release-check', result)).toBe(1);
    expect(result.stderr).toContain(removedPaths[0]);
  }, 120_000);

  it('keeps refusing with a minor changeset, allows it with a major one', async () => {
    changeset('minor');
    const minor = await check();
    expect(minor.code, describeRun('release-check', minor)).toBe(1);
    changeset('major');
    const major = await check();
    expect(major.code, describeRun('release-check', major)).toBe(0);
    expect(major.stdout).toMatch(/api-change\.md bumps @cloudapi\/spec major/);
    rmSync(path.join(clone, '.changeset', 'api-change.md'));
  }, 120_000);

  it('allows it once @cloudapi/spec is on the next major, then compares with that release once recorded', async () => {
    setVersion('5.0.0');
    git('commit', '--quiet', '-am', 'Version 5.0.0');
    const next = await check();
    expect(next.code, describeRun('release-check', next)).toBe(0);
    expect(next.stdout).toContain('since 4.115.0, and @cloudapi/spec 5.0.0 is a new major version');
    const recorded = await record('--ref', 'HEAD');
    expect(recorded.code, describeRun('record-release', recorded)).toBe(0);
    expect(records().map((r) => r.version)).toEqual(['4.115.0', '5.0.0']);
    const clean = await check();
    expect(clean.code, describeRun('release-check', clean)).toBe(0);
    expect(clean.stdout).toContain('nothing breaks clients of 5.0.0');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'Records release 5.0.0');
    const again = removeLastPath();
    const refused = await check();
    expect(refused.code, describeRun('release-check', refused)).toBe(1);
    expect(refused.stderr).toMatch(/\d+ breaking change\(s\) since 5\.0\.0/);
    expect(refused.stderr).toContain(again);
  }, 240_000);
});
