// The API changelog page from the spec's release records, on copies of this repository made the
// way CI and packages see it: cloned with no tag, then its spec folder copied without the
// history (a tarball has none either). A designer's edit adds a field to a response schema and removes another. The
// page (scripts/changelog-page.mjs, as the docs build writes it), read in Chromium, lists the
// changes since the last release, 4.115.0 (those already committed and the edit, the removal
// breaking); once a release is recorded from a commit with the edit, they move under it and
// nothing is unreleased.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { loadBundle } from '@cloudapi/spec/bundle';
import { changesBetween, groupChanges } from '@cloudapi/spec/changelog';
import { readReleaseBundle, readReleases } from '@cloudapi/spec/releases';
import { createSourceIndex } from '@cloudapi/spec/sources';
import { operations } from '@cloudapi/spec/walk';
import { serveStatic } from '../src/serve.mjs';
import { openBrowser } from '../../../test-support/browser.mjs';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageDir, '../..');
const bundle = loadBundle();
const ADDED = 'changelog_probe';

// The schema a public GET of one object answers: a field is added to it, its last one removed.
const refOf = (op) => op.operation.responses['200']?.content?.['application/json']?.schema?.$ref;
const schemaOf = (ref) => bundle.components.schemas[ref.split('/').pop()];
const answering = [...operations(bundle)].find((op) => op.method === 'get' && op.operation.security?.length === 0 && refOf(op) && schemaOf(refOf(op)).properties);
const schemaRef = refOf(answering);
const removed = Object.keys(schemaOf(schemaRef).properties).at(-1);
const operationLabel = `${answering.method.toUpperCase()} ${answering.path}`;

// What the spec already changed since its last release: each breaking change must show.
const [lastRelease] = readReleases(path.join(repoRoot, 'spec')).slice(-1);
const committed = groupChanges(changesBetween(readReleaseBundle(path.join(repoRoot, 'spec'), lastRelease), bundle));

let scratch;
let clone;
let copy;
let browser;

const git = (...args) => execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const run = (script, args) => execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The designer's edit, in the schema's source file as `npm run breaking` finds it. */
function editSchema(root) {
  const { file } = createSourceIndex(path.join(root, 'spec')).locate(schemaRef);
  const source = path.join(root, 'spec', file);
  const doc = parseDocument(readFileSync(source, 'utf8'));
  doc.setIn(['properties', ADDED], doc.createNode({ type: 'string', description: 'A field added by the changelog test.' }));
  doc.deleteIn(['properties', removed]);
  const required = doc.getIn(['required'])?.toJSON() ?? [];
  if (required.includes(removed)) doc.setIn(['required'], doc.createNode(required.filter((name) => name !== removed)));
  writeFileSync(source, doc.toString());
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-changelog-'));
  clone = path.join(scratch, 'repo');
  // Only spec/ (and the files at the top) is checked out: nothing here reads the rest, and
  // writing and removing the whole working tree took seconds on a busy disk.
  execFileSync('git', ['clone', '--quiet', '--no-tags', '--no-checkout', repoRoot, clone], { stdio: 'ignore' });
  git('sparse-checkout', 'set', 'spec');
  git('checkout', '--quiet');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Changelog test');
  editSchema(clone);
  // A copy of the spec with no history at all, as a tarball or an archive download gives it.
  copy = path.join(scratch, 'copy');
  cpSync(path.join(clone, 'spec'), path.join(copy, 'spec'), { recursive: true });
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The rows of the changelog page of a spec folder, read in Chromium, by section. */
async function changelogRows(root) {
  const out = path.join(scratch, `site-${Date.now()}`);
  run(path.join(packageDir, 'scripts', 'changelog-page.mjs'), ['--spec', path.join(root, 'spec'), '--out', out]);
  const site = await serveStatic({ root: out, port: 0 });
  const page = await browser.newPage();
  try {
    await page.goto(`${site.url}changelog.html`);
    return await page.$$eval('section', (sections) => sections.map((s) => ({
      title: s.querySelector('h2').textContent,
      rows: [...s.querySelectorAll('tr.change')].map((tr) => ({ kind: tr.dataset.kind, breaking: tr.dataset.breaking === 'true', text: tr.textContent })),
    })));
  } finally {
    await page.close();
    await site.stop();
  }
}

const about = (rows, field) => rows.filter((r) => r.text.includes(field));

/** The edit's rows and the committed changes since the release, each as it must show. */
function expectChangesSinceRelease(rows) {
  const added = about(rows, ADDED);
  const gone = about(rows, removed).filter((r) => r.kind === 'removed');
  expect(added.length).toBeGreaterThan(0);
  expect(added.every((r) => r.kind === 'added' && !r.breaking)).toBe(true);
  expect(added.some((r) => r.text.includes(operationLabel))).toBe(true);
  expect(gone.length).toBeGreaterThan(0);
  expect(gone.every((r) => r.breaking && r.text.includes('Breaking'))).toBe(true);
  expect(gone.some((r) => r.text.includes(operationLabel))).toBe(true);
  for (const change of committed.filter((c) => c.breaking)) {
    expect(rows.some((r) => r.breaking && r.text.includes(change.message) && r.text.includes(change.operations[0].operation)), `the committed change "${change.message}" is listed, breaking`).toBe(true);
  }
  const known = [...committed.map((c) => c.message), ADDED, removed];
  expect(rows.filter((r) => !known.some((text) => r.text.includes(text))), 'nothing else changed').toEqual([]);
}

describe('the API changelog page', () => {
  it('on a copy with no git history or tag, lists the changes since the last release, 4.115.0', async () => {
    expect(existsSync(path.join(copy, '.git'))).toBe(false);
    expect(lastRelease.version).toBe('4.115.0');
    expect(committed.some((c) => c.breaking), 'the spec has changed since 4.115.0').toBe(true);
    const sections = await changelogRows(copy);
    expect(sections.map((s) => s.title)).toEqual(['Unreleased (since 4.115.0)']);
    expectChangesSinceRelease(sections[0].rows);
  }, 120_000);

  it('moves them under a release recorded from a commit that has them, with nothing unreleased', async () => {
    const manifest = path.join(clone, 'spec', 'package.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/"version": "[^"]+"/, '"version": "4.116.0"'));
    git('commit', '--quiet', '-am', `Adds ${ADDED}, removes ${removed}; version 4.116.0`);
    run(path.join(repoRoot, 'spec', 'scripts', 'record-release.mjs'), ['--spec', path.join(clone, 'spec'), '--ref', 'HEAD']);
    const sections = await changelogRows(clone);
    expect(sections.map((s) => [s.title, s.rows.length > 0])).toEqual([['Unreleased (since 4.116.0)', false], ['4.116.0', true]]);
    expectChangesSinceRelease(sections[1].rows);
  }, 120_000);
});
