// The API changelog page from git history: a temporary clone of this repository gets a release
// tag, then a commit on a branch that adds a field to a response schema and removes another; the
// page (scripts/changelog-page.mjs, as the docs build writes it) lists both for every operation
// that answers the schema, the removal marked breaking, first as unreleased, then as the next
// release once that commit is tagged. Read in Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { loadBundle } from '@cloudapi/spec/bundle';
import { createSourceIndex } from '@cloudapi/spec/sources';
import { operations } from '@cloudapi/spec/walk';
import { writeChangelogPage } from '../scripts/changelog-page.mjs';
import { serveStatic } from '../src/serve.mjs';
import { openBrowser } from '../../../test-support/browser.mjs';

const require = createRequire(import.meta.url);
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

let scratch;
let clone;
let browser;

const git = (...args) => execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const run = (script, args) => execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-changelog-'));
  clone = path.join(scratch, 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-tags', repoRoot, clone], { stdio: 'ignore' });
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Changelog test');
  git('tag', 'v1.0.0');
  git('checkout', '--quiet', '-b', 'a-change');
  // The schema's source file, found as `npm run breaking` finds it, edited as a designer would.
  const { file } = createSourceIndex(path.join(clone, 'spec')).locate(schemaRef);
  const source = path.join(clone, 'spec', file);
  const doc = parseDocument(readFileSync(source, 'utf8'));
  doc.setIn(['properties', ADDED], doc.createNode({ type: 'string', description: 'A field added by the changelog test.' }));
  doc.deleteIn(['properties', removed]);
  const required = doc.getIn(['required'])?.toJSON() ?? [];
  if (required.includes(removed)) doc.setIn(['required'], doc.createNode(required.filter((name) => name !== removed)));
  writeFileSync(source, doc.toString());
  git('commit', '--quiet', '-am', `Adds ${ADDED}, removes ${removed}`);
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The rows of the changelog page of the clone, read in Chromium, by section. */
async function changelogRows() {
  const out = path.join(scratch, `site-${Date.now()}`);
  run(path.join(packageDir, 'scripts', 'changelog-page.mjs'), ['--spec', path.join(clone, 'spec'), '--out', out]);
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
const operationLabel = `${answering.method.toUpperCase()} ${answering.path}`;

describe('the API changelog page', () => {
  it('lists the field added and the field removed since the last tag, the removal breaking', async () => {
    const sections = await changelogRows();
    expect(sections.map((s) => s.title)).toEqual(['Unreleased (since v1.0.0)']);
    const [{ rows }] = sections;
    const added = about(rows, ADDED);
    const gone = about(rows, removed).filter((r) => r.kind === 'removed');
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((r) => r.kind === 'added' && !r.breaking)).toBe(true);
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.every((r) => r.breaking && r.text.includes('Breaking'))).toBe(true);
    expect(added.some((r) => r.text.includes(operationLabel))).toBe(true);
    expect(gone.some((r) => r.text.includes(operationLabel))).toBe(true);
    expect(rows.filter((r) => !r.text.includes(ADDED) && !r.text.includes(removed)), 'nothing else changed').toEqual([]);
  }, 120_000);

  it('moves them under the release that tags the commit, with nothing unreleased', async () => {
    git('tag', 'v1.1.0');
    const sections = await changelogRows();
    expect(sections.map((s) => [s.title, s.rows.length > 0])).toEqual([['Unreleased (since v1.1.0)', false], ['v1.1.0', true]]);
    expect(about(sections[1].rows, removed).some((r) => r.kind === 'removed' && r.breaking)).toBe(true);
    expect(about(sections[1].rows, ADDED).some((r) => r.kind === 'added' && !r.breaking)).toBe(true);
  }, 120_000);

  it('says there is no history when the build has no git checkout, and fails on any other error', async () => {
    const copy = path.join(scratch, 'no-git');
    execFileSync('cp', ['-r', path.join(clone, 'spec'), copy]);
    const out = path.join(scratch, 'no-git-site');
    const written = await writeChangelogPage({ outDir: out, specDir: copy, current: bundle });
    expect(readFileSync(written.file, 'utf8')).toContain('built without the git history of the repository');
    await expect(writeChangelogPage({ outDir: out, specDir: path.join(scratch, 'missing'), current: bundle })).rejects.toThrow();
  });
});
