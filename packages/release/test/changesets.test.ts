// The release flow's dry run: a changeset turned into versions and changelogs by the repository's
// own Changesets configuration, in a throw-away copy of the workspace manifests; and the release
// workflow publishes on a tag, with provenance, only where a registry token exists.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allWorkspaces, describeRun, repoRoot, run } from './support/npm.js';

const copies: string[] = [];
const dirOf = (name: string) => allWorkspaces().find(({ manifest }) => manifest.name === name)!.dir;

/** `changeset version` over a copy of what it reads and writes (.changeset/, manifests,
 * changelogs) with one changeset; returns readers of the result. */
async function versionWith(changeset: string) {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-changesets-'));
  copies.push(copy);
  copyFileSync(path.join(repoRoot, 'package.json'), path.join(copy, 'package.json'));
  mkdirSync(path.join(copy, '.changeset'));
  copyFileSync(path.join(repoRoot, '.changeset', 'config.json'), path.join(copy, '.changeset', 'config.json'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  for (const { dir } of allWorkspaces()) {
    mkdirSync(path.join(copy, dir), { recursive: true });
    for (const name of ['package.json', 'CHANGELOG.md']) {
      if (existsSync(path.join(repoRoot, dir, name))) copyFileSync(path.join(repoRoot, dir, name), path.join(copy, dir, name));
    }
  }
  writeFileSync(path.join(copy, '.changeset', 'the-change.md'), changeset);
  const version = await run(process.execPath, [path.join(repoRoot, 'node_modules', '@changesets', 'cli', 'bin.js'), 'version'], { cwd: copy });
  if (version.code !== 0) throw new Error(describeRun('changeset version', version));
  return {
    manifest: (dir: string) => JSON.parse(readFileSync(path.join(copy, dir, 'package.json'), 'utf8')),
    changelog: (dir: string) => readFileSync(path.join(copy, dir, 'CHANGELOG.md'), 'utf8'),
    changesetLeft: () => existsSync(path.join(copy, '.changeset', 'the-change.md')),
  };
}

const versionOf = (dir: string) => JSON.parse(readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')).version as string;
const typesDir = dirOf('@cloudapi/types');
const [major, minor] = versionOf(typesDir).split('.').map(Number) as [number, number];
const publishedDependents = allWorkspaces().filter(({ manifest }) => !manifest.private && manifest.dependencies?.['@cloudapi/types']);

let minorRun: Awaited<ReturnType<typeof versionWith>>;
let majorRun: Awaited<ReturnType<typeof versionWith>>;

beforeAll(async () => {
  [minorRun, majorRun] = await Promise.all([
    versionWith("---\n'@cloudapi/types': minor\n---\n\nThe types of the Widgets area.\n"),
    versionWith("---\n'@cloudapi/types': major\n---\n\nVolume ids are strings.\n"),
  ]);
}, 120_000);

afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

describe('changeset version', () => {
  it('bumps the changed package and writes its changelog entry', () => {
    expect(minorRun.manifest(typesDir).version).toBe(`${major}.${minor + 1}.0`);
    expect(minorRun.changelog(typesDir)).toMatch(new RegExp(`## ${major}\\.${minor + 1}\\.0\\s+### Minor Changes\\s+- The types of the Widgets area\\.`));
    expect(minorRun.changesetLeft()).toBe(false);
  });

  it('leaves a dependent alone while its range still takes the new version', () => {
    expect(publishedDependents.map(({ manifest }) => manifest.name)).toContain('@cloudapi/client');
    for (const { dir, manifest } of publishedDependents) {
      expect(minorRun.manifest(dir).version, dir).toBe(manifest.version);
      expect(minorRun.manifest(dir).dependencies['@cloudapi/types'], dir).toBe(manifest.dependencies['@cloudapi/types']);
    }
  });

  it('on a major change, moves every published dependent onto it with a patch and a changelog line', () => {
    expect(majorRun.manifest(typesDir).version).toBe(`${major + 1}.0.0`);
    for (const { dir, manifest } of publishedDependents) {
      const after = majorRun.manifest(dir);
      expect(after.dependencies['@cloudapi/types'], dir).toBe(`^${major + 1}.0.0`);
      const [m, n, p] = String(manifest.version).split('.').map(Number) as [number, number, number];
      expect(after.version, dir).toBe(`${m}.${n}.${p + 1}`);
      expect(majorRun.changelog(dir), dir).toMatch(/Updated dependencies/);
    }
  });

  it('never versions a private workspace', () => {
    for (const { dir, manifest } of allWorkspaces().filter(({ manifest }) => manifest.private)) {
      expect(majorRun.manifest(dir).version, dir).toBe(manifest.version);
    }
  });
});

describe('the release workflow', () => {
  const workflow = parse(readFileSync(path.join(repoRoot, '.github', 'workflows', 'release.yml'), 'utf8'));
  const steps: Array<Record<string, any>> = workflow.jobs.publish.steps;

  it('runs on a v* tag only, with an OIDC token for provenance', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*'] } });
    expect(workflow.permissions).toMatchObject({ 'id-token': 'write', contents: 'read' });
  });

  it('publishes with changeset publish and provenance, and only when NPM_TOKEN is set', () => {
    const publish = steps.find((step) => /changeset publish/.test(step.run ?? ''));
    expect(publish).toBeDefined();
    expect(publish!.env).toMatchObject({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}', NPM_CONFIG_PROVENANCE: 'true' });
    expect(workflow.jobs.publish.env.NPM_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
    for (const step of steps.filter((s) => s.uses || s.run !== undefined)) {
      if (/NPM_TOKEN == ''/.test(step.if ?? '')) continue;
      expect(step.if, step.name ?? step.uses).toBe("env.NPM_TOKEN != ''");
    }
    expect(steps.some((step) => step.if === "env.NPM_TOKEN == ''")).toBe(true);
  });

  it('builds before it publishes', () => {
    const order = steps.map((step) => String(step.run ?? step.uses));
    const build = order.findIndex((line) => /npm run build/.test(line));
    const publish = order.findIndex((line) => /changeset publish/.test(line));
    expect(build).toBeGreaterThan(-1);
    expect(build).toBeLessThan(publish);
    // A breaking change without a major version stops the release before anything is published,
    // with every tag there to compare with.
    const check = order.findIndex((line) => /npm run release:check/.test(line));
    expect(check).toBeGreaterThan(build);
    expect(check).toBeLessThan(publish);
    expect(steps.find((step) => step.uses?.startsWith('actions/checkout'))!.with).toMatchObject({ 'fetch-depth': 0 });
  });
});
