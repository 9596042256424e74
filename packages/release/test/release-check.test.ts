// The release check (scripts/release-check.mjs, a step of the release workflow) on a temporary
// clone: after a release tag, a commit removes an operation. The check refuses it without a major
// version, names the operation, keeps refusing a minor changeset, and lets it pass with a major
// changeset or with @cloudapi/spec already on the next major (the tag push after `changeset
// version`), a tag on HEAD itself not counting as the base.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, repoRoot, run } from './support/npm.js';

let scratch: string;
let clone: string;
let removedPath: string;
const specManifest = () => path.join(clone, 'spec', 'package.json');
const version = JSON.parse(readFileSync(path.join(repoRoot, 'spec', 'package.json'), 'utf8')).version as string;
const git = (...args: string[]) => execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const check = () => run(process.execPath, [path.join(repoRoot, 'scripts', 'release-check.mjs'), '--repo', clone], { cwd: clone, timeoutMs: 120_000 });
const changeset = (bump: string) => writeFileSync(path.join(clone, '.changeset', 'api-change.md'), `---\n'@cloudapi/spec': ${bump}\n---\n\nRemoves ${removedPath}.\n`);

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-release-check-'));
  clone = path.join(scratch, 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-tags', repoRoot, clone], { stdio: 'ignore' });
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Release check test');
  git('tag', `v${version}`);
  // The last path item of the root document goes, as a designer would remove it.
  const root = path.join(clone, 'spec', 'openapi.yaml');
  const doc = parseDocument(readFileSync(root, 'utf8'));
  removedPath = (doc.get('paths') as any).items.at(-1).key.value;
  doc.deleteIn(['paths', removedPath]);
  writeFileSync(root, doc.toString());
  git('commit', '--quiet', '-am', `Removes ${removedPath}`);
}, 60_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the release check', () => {
  it('refuses a removed operation without a major version, naming it', async () => {
    const result = await check();
    expect(result.code, describeRun('release-check', result)).toBe(1);
    expect(result.stderr).toContain(`breaking change(s) since v${version}`);
    expect(result.stderr).toContain(`${removedPath}`);
    expect(result.stderr).toMatch(/was removed/);
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

  it('allows it once @cloudapi/spec is on the next major, the new tag on HEAD not being the base', async () => {
    const next = `${Number(version.split('.')[0]) + 1}.0.0`;
    const manifest = JSON.parse(readFileSync(specManifest(), 'utf8'));
    writeFileSync(specManifest(), `${JSON.stringify({ ...manifest, version: next }, null, 2)}\n`);
    git('commit', '--quiet', '-am', `Version ${next}`);
    git('tag', `v${next}`);
    const result = await check();
    expect(result.code, describeRun('release-check', result)).toBe(0);
    expect(result.stdout).toContain(`since v${version}, and @cloudapi/spec ${next} is a new major version`);
  }, 120_000);
});
