// The designer's page, live: `npm run dev`'s loop and docs server (with its live channel) on a
// copy of a small spec, a real Prism, the real docs build, and the page open in Debian's Chromium
// on an operation with its Try it form filled. Three saves that change the operation (atomic
// and in place) each show on the page by themselves: no navigation, the operation still where
// the reader had it, the form still open with what was typed. A save that breaks a style rule
// shows the finding on the page (file:line and the rule), as text even when the spec's text is
// HTML; the save that fixes it clears it.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { createLiveChannel, serveStatic } from '@cloudapi/docs';
import { startMock } from '@cloudapi/mock';
import { deriveMockDocument } from '@cloudapi/mock/derive';
import { createBundler } from '@cloudapi/spec/bundler';
import { writeAtomically } from '@cloudapi/spec/files';
import { CHROMIUM_ARGS, ensureChromium } from '../../docs/test/support/chromium.mjs';
import { startDevLoop } from '../src/index.mjs';
import { buildDocs } from '../src/stages.mjs';
import { writeSplitSpec } from './support/fixture.mjs';

const OPERATION = 'listWidgets';
const SECTION = 'widgets/listwidgets'; // Redoc's id (and address) of the operation
const PATH_ITEM = 'paths/widgets.yaml';
const WIDGET = 'components/schemas/Widget.yaml';
// What the reader typed into the operation's Try it form, by the fields' labels.
const TYPED = { 'query page': '3', 'header X-Filter': '{"label":"typed by hand"}', 'Bearer token': 'a-token-typed-by-hand' };

let dir;
let specDir;
let live;
let docs;
let mock;
let loop;
let browser;
let page;
const lines = [];
const stages = [];

beforeAll(async () => {
  const found = ensureChromium();
  if (found.error) throw new Error(found.error);
  dir = mkdtempSync(path.join(os.tmpdir(), 'dev-live-'));
  specDir = path.join(dir, 'spec');
  mkdirSync(specDir);
  writeSplitSpec(specDir);
  // What `npm start` builds before the loop starts: the bundle, the mock's document, the page.
  const { document, files } = await (await createBundler({ specDir })).bundle();
  writeAtomically(path.join(specDir, 'dist'), files);
  const mockDocument = path.join(dir, 'mock', 'openapi.mock.json');
  writeAtomically(path.dirname(mockDocument), { 'openapi.mock.json': JSON.stringify(deriveMockDocument(document)) });
  const docsDir = path.join(dir, 'docs');
  const built = await buildDocs({ bundleDir: path.join(specDir, 'dist'), outDir: docsDir }).done;
  expect(built.code, built.output).toBe(0);
  live = createLiveChannel({ root: docsDir });
  [mock, docs, browser] = await Promise.all([
    startMock({ port: 0, document: mockDocument, watch: false, log: () => {} }),
    serveStatic({ root: docsDir, port: 0, routes: live.routes }),
    chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS, headless: true }),
  ]);
  // No pause is long enough for the whole-spec lint: what the page shows of the lint comes from
  // the lint of each save (test/loop.test.mjs has the idle work).
  loop = await startDevLoop({
    specDir, mock, mockDocument, docsDir, docsUrl: docs.url, live, idleMs: 600_000, log: (line) => lines.push(line), onStage: (event) => stages.push(event),
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await loop?.close();
  live?.close();
  await Promise.all([mock?.stop(), docs?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Edits a YAML file of the copy; `atomic` writes a temporary file and renames it over the original. */
function save(file, edit, { atomic }) {
  const full = path.join(specDir, file);
  const doc = parseDocument(readFileSync(full, 'utf8'));
  edit(doc);
  const text = doc.toString();
  if (atomic) {
    writeFileSync(path.join(path.dirname(full), `.${path.basename(full)}.swp`), text);
    renameSync(path.join(path.dirname(full), `.${path.basename(full)}.swp`), full);
  } else {
    writeFileSync(full, text);
  }
  return text;
}

// Runs in the page: where the reader is, and what the form holds.
function readersPlace({ section, operation }) {
  const panel = document.querySelector(`.try-it-panel[data-operation="${operation}"]`);
  const values = {};
  panel?.querySelectorAll('input, select, textarea').forEach((control) => { values[control.getAttribute('aria-label')] = control.value; });
  return {
    marker: window.liveTestMarker ?? null,
    hash: location.hash,
    sectionShown: Boolean(document.getElementById('redoc').querySelector(`[id="${section}"]`)),
    panelTop: panel ? Math.round(panel.getBoundingClientRect().top) : null,
    values,
    focused: document.activeElement?.getAttribute('aria-label') ?? null,
    renders: window.cloudapiLive.renders,
  };
}

/** The lint of the last save, once it has ended. */
async function lastLint() {
  await expect.poll(() => stages.findLast((e) => e.stage === 'bundle')?.run).toBeGreaterThan(0);
  const run = stages.findLast((e) => e.stage === 'bundle').run;
  await expect.poll(() => stages.find((e) => e.run === run && e.stage === 'lint'), { timeout: 30_000 }).toBeTruthy();
  return stages.find((e) => e.run === run && e.stage === 'lint');
}

const pageText = () => page.evaluate(() => document.getElementById('redoc').textContent);
const overlayText = () => page.evaluate(() => document.querySelector('[data-live-overlay]')?.textContent ?? null);

describe('the docs page while `npm run dev` runs', () => {
  let loads = 0;
  let before;

  it('opens on an operation, its Try it form filled', async () => {
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('load', () => { loads++; });
    await page.goto(`${docs.url}#/${SECTION}`, { waitUntil: 'load' });
    await page.locator(`.try-it-toggle[data-operation="${OPERATION}"]`).click();
    const panel = page.locator(`.try-it-panel[data-operation="${OPERATION}"]`);
    for (const [label, value] of Object.entries(TYPED)) await panel.locator(`[aria-label="${label}"]`).fill(value);
    await panel.locator('[aria-label="query page"]').focus();
    // The form near the top of the window, as a reader working in it has it.
    await page.evaluate((operation) => {
      const form = document.querySelector(`.try-it-panel[data-operation="${operation}"]`);
      window.scrollBy(0, form.getBoundingClientRect().top - 120);
      window.liveTestMarker = 'the same page';
      // Where the page is when a new version starts to render hidden, and when it is swapped in
      // (before the page puts the reader's place back): the same, or the reader saw it jump.
      window.movedWhileRendering = [];
      let start = null;
      document.addEventListener('cloudapi:live-update', () => { start = window.scrollY; });
      document.addEventListener('cloudapi:live-updated', () => { if (window.scrollY !== start) window.movedWhileRendering.push([start, window.scrollY]); });
    }, OPERATION);
    await expect.poll(() => page.evaluate(() => window.cloudapiLive.connected)).toBe(true);
    before = await page.evaluate(readersPlace, { section: SECTION, operation: OPERATION });
    expect(before).toMatchObject({ marker: 'the same page', sectionShown: true, focused: 'query page', values: TYPED, renders: 0 });
    expect(before.panelTop).toBeGreaterThan(60);
  });

  const saves = [
    ['an atomic save of the operation\'s summary', 'List every widget of the account (first save)', () => save(PATH_ITEM, (doc) => doc.setIn(['get', 'summary'], 'List every widget of the account (first save)'), { atomic: true })],
    ['a save in place of its description', 'second save of the description', () => save(PATH_ITEM, (doc) => doc.setIn(['get', 'description'], 'Lists the widgets, one page at a time: second save of the description.'), { atomic: false })],
    ['an atomic save of the schema it answers', 'third save: where the widget is installed', () => save(WIDGET, (doc) => doc.setIn(['properties', 'site_type'], doc.createNode({ type: 'string', description: 'The third save: where the widget is installed.' })), { atomic: true })],
  ];
  it.each(saves)('shows %s by itself, keeping the reader\'s place and the form', async (_, marker, act) => {
    expect(await pageText()).not.toContain(marker);
    const renders = (await page.evaluate(() => window.cloudapiLive.renders));
    const bundles = stages.filter((e) => e.stage === 'bundle').length;
    act();
    await expect.poll(pageText, { timeout: 30_000 }).toContain(marker);
    await expect.poll(() => stages.filter((e) => e.stage === 'bundle').length).toBe(bundles + 1);
    expect((await lastLint()).ok, lines.join('\n')).toBe(true);
    const now = await page.evaluate(readersPlace, { section: SECTION, operation: OPERATION });
    expect(now.renders).toBe(renders + 1);
    expect(await page.evaluate(() => window.movedWhileRendering), 'the page scrolled while the new version rendered').toEqual([]);
    expect(now).toMatchObject({ marker: 'the same page', hash: before.hash, sectionShown: true, values: TYPED, focused: 'query page' });
    expect(Math.abs(now.panelTop - before.panelTop), `the form moved from ${before.panelTop} px to ${now.panelTop} px`).toBeLessThan(40);
    expect(loads).toBe(1);
  });

  it('shows a style error on the page with its file, line and rule, and clears it when a save fixes it', async () => {
    expect(await overlayText()).toBeNull();
    // A camelCase property whose name is HTML: the finding quotes it, and Redoc shows it.
    const name = 'siteType<img src=x onerror="window.pwned=1">';
    const text = save(WIDGET, (doc) => {
      doc.get('properties').items.find((p) => p.key.value === 'site_type').key.value = name;
    }, { atomic: false });
    const line = text.split('\n').findIndex((l) => l.startsWith('  siteType<img') || l.startsWith('  "siteType<img') || l.startsWith("  'siteType<img")) + 1;
    expect(line).toBeGreaterThan(0);
    const where = `${path.relative(process.cwd(), path.join(specDir, WIDGET))}:${line}:3`;
    await expect.poll(overlayText, { timeout: 30_000 }).toContain(where);
    const shown = await overlayText();
    expect(shown).toContain('redocly/rule/property-names-snake-case');
    expect(shown).toMatch(/"siteType<img src=x onerror=.*" should use snake_case/);
    await expect.poll(pageText, { timeout: 30_000 }).toContain(name);
    expect(await page.evaluate(() => ({ pwned: window.pwned ?? null, images: document.querySelectorAll('[data-live-overlay] img, #redoc img[src="x"]').length }))).toEqual({ pwned: null, images: 0 });
    save(WIDGET, (doc) => {
      doc.get('properties').items.find((p) => p.key.value === name).key.value = 'site_type';
    }, { atomic: true });
    await expect.poll(overlayText, { timeout: 30_000 }).toBeNull();
    expect(await page.evaluate(() => window.liveTestMarker)).toBe('the same page');
    expect(loads).toBe(1);
  });
});
