// The dependency update configuration holds back what must not move on Node 20, and the
// package.json files still keep those holds (a hold on a range nobody uses would hide a drift).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { allWorkspaces, repoRoot } from './support/npm.js';

const config = parse(readFileSync(path.join(repoRoot, '.github', 'dependabot.yml'), 'utf8'));
const npm = config.updates.find((update: { 'package-ecosystem': string }) => update['package-ecosystem'] === 'npm');
const ignored = new Map<string, string[] | 'all'>(npm.ignore.map((rule: { 'dependency-name': string; 'update-types'?: string[] }) =>
  [rule['dependency-name'], rule['update-types'] ?? 'all']));
const rootManifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

/** Every range a workspace or the root asks for `name`, exact names or a `prefix*` pattern. */
function rangesOf(pattern: string): Array<[string, string]> {
  const match = (name: string) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern);
  return [{ dir: '.', manifest: rootManifest }, ...allWorkspaces()].flatMap(({ dir, manifest }) =>
    ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) =>
      Object.entries((manifest[field] ?? {}) as Record<string, string>).filter(([name]) => match(name)).map(([name, range]) => [`${dir} ${name}`, range] as [string, string])));
}

describe('dependabot.yml', () => {
  it('updates npm and the workflows\' actions weekly', () => {
    expect(config.updates.map((update: { 'package-ecosystem': string }) => update['package-ecosystem']).sort()).toEqual(['github-actions', 'npm']);
  });

  it('holds Prism entirely, at the versions prism-cli 5.14 runs', () => {
    expect(ignored.get('@stoplight/prism-*')).toBe('all');
    expect(Object.fromEntries(rangesOf('@stoplight/prism-*').map(([where, range]) => [where.split(' ')[1], range])))
      .toEqual({ '@stoplight/prism-core': '5.8.0', '@stoplight/prism-http': '5.12.0', '@stoplight/prism-http-server': '5.12.2' });
  });

  it.each([
    ['typescript', /^\^?5\./],
    ['@types/node', /^\^?20\./],
    ['@changesets/cli', /^\^?2\./],
  ])('holds %s at its major, which every package.json asks for', (name, major) => {
    expect(ignored.get(name)).toEqual(['version-update:semver-major']);
    const ranges = rangesOf(name);
    expect(ranges.length).toBeGreaterThan(0);
    for (const [where, range] of ranges) expect(range, where).toMatch(major);
  });

  it('holds @hey-api/openapi-ts at its minor and light-my-request where the root overrides it', () => {
    expect(ignored.get('@hey-api/openapi-ts')).toEqual(['version-update:semver-minor', 'version-update:semver-major']);
    expect(rangesOf('@hey-api/openapi-ts').map(([, range]) => range)).toEqual(['0.95.0']);
    expect(ignored.get('light-my-request')).toBe('all');
    expect(rootManifest.overrides['light-my-request']).toMatch(/^6\.6\./);
  });
});
