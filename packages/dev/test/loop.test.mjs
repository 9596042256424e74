// The designer loop tried as a designer would, on a copy of a small spec laid out like spec/,
// with a real Prism mock, the docs server's live channel, the real docs build and git for HEAD:
// add a property, break a style rule, remove a required field, each saved the way editors with
// "safe write" save (write a temporary file, rename it over the original). Each must be reported
// with its file and line, the mock must serve the change, the pages must be sent it and, once the
// loop is idle, the docs page on disk must show it (test/live.test.mjs has the page in a browser).
// Waits end on the loop's stage events: a test that needs the work done when the designer pauses
// (the whole-spec lint, the page on disk) waits for the loop to be idle, the others only for the
// stages of their save, so that the next save comes before that work starts (or stops it), as a
// designer's next save does. The limits are generous for a loaded machine. Stage times are
// measured by `npm run bench:dev`, not asserted here.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { createLiveChannel, serveStatic } from '@cloudapi/docs';
import { startMock } from '@cloudapi/mock';
import { basePathOf } from '@cloudapi/spec/bundle';
import { deriveMockDocument } from '@cloudapi/mock/derive';
import { createBundler } from '@cloudapi/spec/bundler';
import { writeAtomically } from '@cloudapi/spec/files';
import { startDevLoop } from '../src/index.mjs';
import { LINT_FIRST_MS } from '../src/preview-stages.mjs';
import { writeSplitSpec } from './support/fixture.mjs';

const LIMIT_MS = 120_000;
let dir;
let specDir;
let mock;
let docs;
let live;
let loop;
let apiUrl;
const lines = [];
const events = [];
const waiting = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dev-loop-'));
  specDir = path.join(dir, 'spec');
  mkdirSync(specDir);
  writeSplitSpec(specDir);
  // What `npm start` builds before the loop starts: the bundle and the mock's document.
  const { document, files } = await (await createBundler({ specDir })).bundle();
  writeAtomically(path.join(specDir, 'dist'), files);
  const mockDocument = path.join(dir, 'mock', 'openapi.mock.json');
  writeAtomically(path.dirname(mockDocument), { 'openapi.mock.json': JSON.stringify(deriveMockDocument(document)) });
  mkdirSync(path.join(dir, 'docs'));
  live = createLiveChannel({ root: path.join(dir, 'docs') });
  [mock, docs] = await Promise.all([startMock({ port: 0, document: mockDocument, watch: false }), serveStatic({ root: path.join(dir, 'docs'), port: 0, routes: live.routes })]);
  apiUrl = `${mock.url}${basePathOf(document)}`;
  loop = await startDevLoop({
    specDir, mock, mockDocument, docsDir: path.join(dir, 'docs'), docsUrl: docs.url, live, idleMs: 200,
    log: (line) => lines.push(line),
    onStage: (event) => {
      events.push(event);
      for (const w of waiting.filter((x) => x.match(event))) w.resolve(event);
    },
  });
});

afterAll(async () => {
  await loop?.close();
  live?.close();
  await Promise.all([mock?.stop(), docs?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The stage events of the next rebuild, once its stages `wanted` have all ended. */
function nextRebuild(wanted = ['lint', 'bundle', 'breaking', 'mock', 'docs']) {
  const from = events.length;
  const run = () => events.slice(from).find((e) => e.run > 0)?.run;
  return Promise.all(wanted.map((stage) => new Promise((resolve, reject) => {
    const match = (e) => e.run > 0 && e.run === (run() ?? e.run) && e.stage === stage;
    const seen = events.slice(from).find(match);
    if (seen) return resolve(seen);
    const timer = setTimeout(() => reject(new Error(`no "${stage}" stage within ${LIMIT_MS} ms; the loop said:\n${lines.join('\n')}`)), LIMIT_MS);
    waiting.push({ match, resolve: (e) => { clearTimeout(timer); resolve(e); } });
  }))).then((list) => Object.fromEntries(list.map((e) => [e.stage, e])));
}

/** An editor's atomic save of a YAML file, after `edit` changes its parsed document. */
function atomicSave(file, edit) {
  const full = path.join(specDir, file);
  const doc = parseDocument(readFileSync(full, 'utf8'));
  edit(doc);
  const temporary = path.join(path.dirname(full), `.${path.basename(full)}.swp`);
  writeFileSync(temporary, doc.toString());
  renameSync(temporary, full);
  return readFileSync(full, 'utf8');
}
const lineOf = (text, pattern) => text.split('\n').findIndex((line) => pattern.test(line)) + 1;
const logSince = (count) => lines.slice(count).join('\n');

describe('npm run dev, tried as a designer would', () => {
  it('starts from a clean spec', async () => {
    await loop.idle();
    expect(lines.join('\n')).toMatch(/breaking changes are compared with HEAD \([0-9a-f]{7} "the spec before the session"\)/);
    expect(lines.join('\n')).toMatch(/lint all .*✔ clean: the whole spec and its bundle/);
  });

  it('adds a property: lint clean, no breaking change, the mock serves it, the pages get it and the docs page on disk shows it', async () => {
    const before = lines.length;
    const rebuild = nextRebuild();
    atomicSave('components/schemas/Widget.yaml', (doc) => {
      doc.setIn(['properties', 'site_type'], doc.createNode({ type: 'string', description: 'Where the widget is installed.' }));
    });
    atomicSave('paths/widgets_{widgetId}.yaml', (doc) => {
      doc.setIn(['get', 'responses', '200', 'content', 'application/json', 'examples', 'widget', 'value', 'site_type'], 'rooftop');
    });
    const stages = await rebuild;
    await loop.idle();
    const said = logSince(before);
    expect(stages.lint.ok, said).toBe(true);
    expect(stages.breaking.ok, said).toBe(true);
    expect(said).toMatch(/breaking .*✔ no breaking change compared with HEAD \([0-9a-f]{7} "the spec before the session"\)/);
    expect(stages.mock.ok, said).toBe(true);
    expect(stages.docs.ok, said).toBe(true);
    expect(said).toMatch(/docs .*✔ sent to 0 open pages at http:/);
    // The lint line first: the pages and the comparison with HEAD wait for it (or LINT_FIRST_MS).
    for (const stage of ['docs', 'breaking']) expect(stages[stage].ms, said).toBeGreaterThanOrEqual(Math.min(stages.lint.ms, stages.bundle.ms + LINT_FIRST_MS));
    const widget = await (await fetch(`${apiUrl}/widgets/7`)).json();
    expect(widget.site_type).toBe('rooftop');
    const sent = await (await fetch(new URL('_live/docs.json', docs.url))).json();
    expect(JSON.stringify(sent.docs.definition.components.schemas.Widget)).toContain('site_type');
    expect(sent.docs.tryIt.operations.map((op) => op.id)).toContain('getWidget');
    // Once idle: the whole-spec lint, then the page on disk.
    expect(said).toMatch(/lint all .*✔ clean[\s\S]*site .*✔ rebuilt/);
    expect(await (await fetch(docs.url)).text()).toContain('site_type');
  });

  it('breaks a style rule: the finding names the property, its file and line', async () => {
    const before = lines.length;
    const rebuild = nextRebuild();
    const text = atomicSave('components/schemas/Widget.yaml', (doc) => {
      const properties = doc.get('properties');
      const pair = properties.items.find((p) => p.key.value === 'site_type');
      pair.key.value = 'siteType';
    });
    const stages = await rebuild;
    const said = logSince(before);
    expect(stages.lint.ok, said).toBe(false);
    const line = lineOf(text, /^ {2}siteType:/);
    expect(said).toContain(`components/schemas/Widget.yaml:${line}:3  error  redocly/rule/property-names-snake-case  (properties.siteType)`);
    expect(said).toMatch(/"siteType" should use snake_case/);
    expect(said).toMatch(/lint .*✖ 1 problem in \S*components\/schemas\/Widget\.yaml \(1\)/);
  });

  it('removes a required field: a breaking change with the file and line of the required list', async () => {
    const before = lines.length;
    const rebuild = nextRebuild();
    const text = atomicSave('components/schemas/Widget.yaml', (doc) => {
      doc.get('properties').items.find((p) => p.key.value === 'siteType').key.value = 'site_type'; // the style fixed
      const required = doc.get('required');
      required.items = required.items.filter((item) => item.value !== 'label');
    });
    const stages = await rebuild;
    const said = logSince(before);
    expect(stages.lint.ok, said).toBe(true);
    expect(stages.breaking.ok, said).toBe(false);
    const line = lineOf(text, /^required:/);
    expect(said).toMatch(/breaking .*✖ Breaking for clients written against HEAD \([0-9a-f]{7} "the spec before the session"\):/);
    expect(said).toContain(`components/schemas/Widget.yaml:${line}:1  label is no longer always present  [response-property-optional]`);
  });

  it('a save during a rebuild: what is left of it stops, and the newest content is served', async () => {
    const firstBundle = new Promise((resolve) => waiting.push({ match: (e) => e.stage === 'bundle', resolve }));
    atomicSave('components/schemas/Widget.yaml', (doc) => doc.set('description', 'A widget, as first saved.'));
    const { run: first } = await firstBundle;
    const later = new Promise((resolve) => waiting.push({ match: (e) => e.run > first && e.stage === 'docs', resolve }));
    atomicSave('paths/widgets_{widgetId}.yaml', (doc) => {
      doc.setIn(['get', 'responses', '200', 'content', 'application/json', 'examples', 'widget', 'value', 'site_type'], 'basement');
    });
    expect((await later).ok).toBe(true);
    await loop.idle();
    expect((await (await fetch(`${apiUrl}/widgets/7`)).json()).site_type).toBe('basement');
    const page = await (await fetch(docs.url)).text();
    expect(page).toContain('basement');
    expect(page).toContain('A widget, as first saved.');
  });
});
