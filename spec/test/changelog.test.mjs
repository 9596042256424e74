// The API changelog: the engine's notes of what changed without breaking anyone (only when asked
// for), their kinds in the changelog beside the breaking ones, the release records it starts from
// (spec/releases, checked against the commit each was made from), and `npm run changelog --check`
// holding spec/CHANGELOG-API.md to what the release records and the spec make.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareDocuments } from '../lib/breaking.mjs';
import { apiChangelog, changelogMarkdown, changesBetween } from '../lib/changelog.mjs';
import { readReleaseBundle, readReleases } from '../lib/releases.mjs';
import { loadBundle, specDir } from './helpers.mjs';

const bundle = loadBundle();
const after = (mutate) => { const doc = structuredClone(bundle); mutate(doc); return doc; };
const schemas = (doc) => doc.components.schemas;
const summary = (changes) => changes.map((c) => `${c.kind}${c.breaking ? '!' : ''} ${c.operation} ${c.field}`);

describe('changesBetween', () => {
  it('lists a response field added (not breaking) and one removed (breaking), with operation and field', () => {
    const changes = changesBetween(bundle, after((d) => {
      schemas(d).Region.properties.nickname = { type: 'string' };
      delete schemas(d).Region.properties.country;
      schemas(d).Region.required = schemas(d).Region.required.filter((n) => n !== 'country');
    }));
    expect(summary(changes)).toEqual(expect.arrayContaining(['added GET /regions/{regionId} nickname', 'removed! GET /regions/{regionId} country', 'added GET /regions data[].nickname', 'removed! GET /regions data[].country']));
    expect(changes.findIndex((c) => !c.breaking)).toBeGreaterThan(changes.findLastIndex((c) => c.breaking)); // breaking first
    expect(changes.find((c) => c.field === 'nickname').operationId).toBe(bundle.paths['/regions/{regionId}'].get.operationId);
  });

  it('lists an operation added, an operation and a field deprecated, an optional parameter added', () => {
    const changes = changesBetween(bundle, after((d) => {
      d.paths['/regions/{regionId}/probe'] = { get: { ...structuredClone(d.paths['/regions/{regionId}'].get), operationId: 'probeRegion' } };
      d.paths['/regions'].get.deprecated = true;
      d.paths['/regions'].get.parameters = [...(d.paths['/regions'].get.parameters ?? []), { name: 'country', in: 'query', schema: { type: 'string' } }];
      schemas(d).Volume.properties.label = { ...schemas(d).Volume.properties.label, deprecated: true };
    }));
    const lines = summary(changes);
    expect(lines).toEqual(expect.arrayContaining(['added GET /regions/{regionId}/probe ', 'deprecated GET /regions ', 'added GET /regions query parameter country', 'deprecated GET /volumes/{volumeId} label']));
    expect(changes.every((c) => !c.breaking)).toBe(true);
  });

  it('leaves the breaking check as it was unless asked for every change', () => {
    const grown = after((d) => { schemas(d).Region.properties.nickname = { type: 'string' }; d.paths['/regions'].get.deprecated = true; });
    expect(compareDocuments(bundle, grown)).toEqual({ findings: [], added: [] });
    expect(compareDocuments(bundle, grown, { all: true }).findings.every((f) => f.level === 'info')).toBe(true);
  });
});

describe('the changelog', () => {
  it('has a section per release and one since the last, newest first, breaking ones marked in Markdown', async () => {
    const documents = {
      '1.0.0': bundle,
      '1.1.0': after((d) => { schemas(d).Region.properties.nickname = { type: 'string' }; }),
    };
    const current = after((d) => { schemas(d).Region.properties.nickname = { type: 'string' }; delete schemas(d).Region.properties.country; });
    const changelog = await apiChangelog({ releases: Object.keys(documents), bundleAt: async (version) => documents[version], current });
    expect(changelog.sections.map((s) => s.title)).toEqual(['Unreleased (since 1.1.0)', '1.1.0']);
    const markdown = changelogMarkdown(changelog);
    expect(markdown).toMatch(/## Unreleased \(since 1\.1\.0\)[\s\S]*### Removed\n\n(- .*\n)*- \*\*Breaking\*\* `country` in `GET \/regions\/\{regionId\}` \(getRegion\): country was removed from the response/);
    expect(markdown).toMatch(/## 1\.1\.0[\s\S]*### Added\n\n(- .*\n)*- `nickname` in `GET \/regions\/\{regionId\}` \(getRegion\): nickname was added to the response/);
  });

  it('lists a change made to many operations once, naming the first few', () => {
    const grown = after((d) => { schemas(d).ErrorResponse.properties.nickname = { type: 'string' }; });
    const markdown = changelogMarkdown({ releases: ['1.0.0'], sections: [{ title: 'Unreleased (since 1.0.0)', from: '1.0.0', to: 'the working tree', unreleased: true, changes: changesBetween(bundle, grown) }] });
    const lines = markdown.split('\n').filter((l) => l.includes('nickname was added to the response'));
    const reached = new Set(changesBetween(bundle, grown).filter((c) => c.field === 'nickname').map((c) => c.operation));
    expect(reached.size, 'every operation answers the error body').toBeGreaterThan(6);
    expect(lines.filter((l) => l.startsWith('- `nickname` in '))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith('- `nickname` in '))).toMatch(new RegExp(`and ${reached.size - 6} more operations: `));
  });

  const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-changelog-check-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const check = (out) => spawnSync(process.execPath, [path.join(specDir, 'scripts', 'changelog.mjs'), '--check', ...(out ? ['--out', out] : [])], { encoding: 'utf8', timeout: 120_000 });

  it('starts from release 4.115.0, the spec on main when its release was recorded, re-bundled from that commit as it is now', () => {
    const releases = readReleases(specDir);
    expect(releases.map((r) => [r.version, r.commit])).toEqual([['4.115.0', '430c31b630d37b853bc333aea2aae928cc000cea']]);
    expect(readReleaseBundle(specDir, releases[0]).info.version).toBe('4.115.0');
    const result = spawnSync(process.execPath, [path.join(specDir, 'scripts', 'record-release.mjs'), '--check'], { encoding: 'utf8', timeout: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('release 4.115.0 (430c31b) is up to date');
    expect(result.status).toBe(0);
  }, 120_000);

  it('spec/CHANGELOG-API.md is what `npm run changelog` makes now (run it and commit the file when this fails)', () => {
    const result = check();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  it('--check exits 1 on a stale file and says what to run', () => {
    const stale = path.join(scratch, 'CHANGELOG-API.md');
    writeFileSync(stale, '# API changelog\n\nan old list\n');
    const result = check(stale);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/is out of date with the spec and its release records: run `npm run changelog` and commit it/);
    expect(execFileSync('cat', [stale], { encoding: 'utf8' })).toContain('an old list');
  }, 120_000);
});
