// The designer's page, live (issue 36): `npm run dev` itself, on a fresh copy of this repository
// (test/support/fresh-copy.mjs: what git knows, the build outputs, node_modules linked) and its real
// 128-operation spec, on free ports; the docs page open in Debian's Chromium on one operation with
// its Try it form filled. Three saves that change the operation (atomic and in place, its own file
// and the schema it answers) each show on the page by themselves: no navigation, the operation
// still where the reader had it, the form still filled. A save that breaks a style rule shows the
// finding on the page (file:line and the rule), as text even when the spec's text is HTML; the
// save that fixes it clears it. Ctrl-C (SIGINT to the process group) then stops everything.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { openBrowser } from '../../../test-support/browser.mjs';
import { copyRepository, startDev } from './support/fresh-copy.mjs';

const OPERATION = 'getRegion';
const SECTION = 'regions/getregion'; // Redoc's id (and address) of the operation
const PATH_ITEM = 'spec/paths/regions/regions_{regionId}.yaml';
const SCHEMA = 'spec/components/schemas/regions/Region.yaml';
// What the reader typed into the operation's Try it form, by the fields' labels.
const TYPED = { 'path regionId': 'typed-by-hand-1' };

let dir;
let copy;
let dev;
let browser;
let page;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dev-live-'));
  copy = path.join(dir, 'repo');
  copyRepository(copy);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|VITEST|TURBO_)/i.test(key)));
  [dev, browser] = await Promise.all([
    startDev(copy, { ...env, NO_COLOR: '1', PORT: '0', DOCS_PORT: '0', SERVER_PORT: '0', DATA_DIR: path.join(dir, 'data') }),
    openBrowser(),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  const exit = await dev?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  // Ctrl-C stops every part, none of them restarted on the way or failed (start.mjs would exit 1
  // and say so); npm itself ends by the SIGINT, as in a terminal.
  if (dev) {
    expect(dev.output()).toMatch(/✔ stopped the docs, the mock and the server\.\n/);
    expect(dev.output()).not.toMatch(/restarting it|stays stopped|npm start failed|exit 1/);
    expect(exit, dev.output()).toEqual({ code: null, signal: 'SIGINT' });
  }
}, 60_000);

/** Edits a YAML file of the copy; `atomic` writes a temporary file and renames it over the original. */
function save(file, edit, { atomic }) {
  const full = path.join(copy, file);
  const doc = parseDocument(readFileSync(full, 'utf8'));
  edit(doc);
  const text = doc.toString();
  if (atomic) {
    const temporary = path.join(path.dirname(full), `.${path.basename(full)}.swp`);
    writeFileSync(temporary, text);
    renameSync(temporary, full);
  } else {
    writeFileSync(full, text);
  }
  return text;
}

/**
 * The lint line of the `n`th save (1-based) in `npm run dev`'s output, once printed; the loop
 * rebuilt once per save (an atomic rename is one change, not a deletion and a creation).
 */
async function lintLineOfSave(n) {
  const reports = () => dev.output().split('\n↻ ').slice(1);
  await expect.poll(() => /^ {2}lint +\d/m.test(reports()[n - 1] ?? ''), { timeout: 30_000 }).toBe(true);
  expect(reports(), dev.output()).toHaveLength(n);
  return /^ {2}lint +\d.*$/m.exec(reports()[n - 1])[0];
}

// Runs in the page: where the reader is, and what the form holds.
function readersPlace({ section, operation }) {
  const panel = document.querySelector(`.try-it-panel[data-operation="${operation}"]`);
  const values = {};
  panel?.querySelectorAll('input[data-parameter]').forEach((control) => { values[control.getAttribute('aria-label')] = control.value; });
  return {
    marker: window.liveTestMarker ?? null,
    hash: location.hash,
    sectionShown: Boolean(document.getElementById('redoc').querySelector(`[id="${section}"]`)),
    panelTop: panel ? Math.round(panel.getBoundingClientRect().top) : null,
    viewport: window.innerHeight,
    values,
    focused: document.activeElement?.getAttribute('aria-label') ?? null,
    renders: window.cloudapiLive.renders,
  };
}

const sectionText = () => page.evaluate((section) => document.getElementById('redoc').querySelector(`[id="${section}"]`)?.closest('[data-section-id]')?.textContent ?? '', SECTION);
const pageText = () => page.evaluate(() => document.getElementById('redoc').textContent);
const overlayText = () => page.evaluate(() => document.querySelector('[data-live-overlay]')?.textContent ?? null);

describe('the docs page of `npm run dev` on a fresh copy', () => {
  let loads = 0;
  let saves = 0;
  let before;

  it('opens on an operation, its Try it form filled', async () => {
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('load', () => { loads++; });
    await page.goto(`${dev.docsUrl}#/${SECTION}`, { waitUntil: 'load' });
    await page.locator(`.try-it-toggle[data-operation="${OPERATION}"]`).click();
    const panel = page.locator(`.try-it-panel[data-operation="${OPERATION}"]`);
    for (const [label, value] of Object.entries(TYPED)) await panel.locator(`[aria-label="${label}"]`).fill(value);
    await panel.locator('[aria-label="path regionId"]').focus();
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
    expect(before).toMatchObject({ marker: 'the same page', sectionShown: true, focused: 'path regionId', values: TYPED, renders: 0 });
    expect(before.panelTop).toBeGreaterThan(60);
    expect(before.panelTop).toBeLessThan(before.viewport);
  });

  const changes = [
    ['an atomic save of the operation\'s summary', 'Get one region (first save)', () => save(PATH_ITEM, (doc) => doc.setIn(['get', 'summary'], 'Get one region (first save)'), { atomic: true })],
    ['a save in place of its description', 'second save of the description', () => save(PATH_ITEM, (doc) => doc.setIn(['get', 'description'], 'Returns one region, no token needed: second save of the description.'), { atomic: false })],
    ['an atomic save of the schema it answers', 'third save: the region\'s own note', () => save(SCHEMA, (doc) => doc.setIn(['properties', 'site_note'], doc.createNode({ type: 'string', description: 'The third save: the region\'s own note.' })), { atomic: true })],
  ];
  it.each(changes)('shows %s by itself, keeping the reader\'s place and the form', async (_, marker, act) => {
    expect(await pageText()).not.toContain(marker);
    const renders = await page.evaluate(() => window.cloudapiLive.renders);
    act();
    saves++;
    await expect.poll(sectionText, { timeout: 30_000 }).toContain(marker);
    expect(await lintLineOfSave(saves)).toMatch(/✔ clean/);
    const now = await page.evaluate(readersPlace, { section: SECTION, operation: OPERATION });
    expect(now.renders).toBe(renders + 1);
    expect(await page.evaluate(() => window.movedWhileRendering), 'the page scrolled while the new version rendered').toEqual([]);
    expect(now).toMatchObject({ marker: 'the same page', hash: before.hash, sectionShown: true, values: TYPED, focused: 'path regionId' });
    expect(Math.abs(now.panelTop - before.panelTop), `the form moved from ${before.panelTop} px to ${now.panelTop} px`).toBeLessThan(40);
    expect(loads).toBe(1);
  });

  it('shows a style error on the page with its file, line and rule, and clears it when a save fixes it', async () => {
    expect(await overlayText()).toBeNull();
    // A camelCase property whose name is HTML: the finding quotes it, and Redoc shows it.
    const name = 'siteNote<img src=x onerror="window.pwned=1">';
    const text = save(SCHEMA, (doc) => {
      doc.get('properties').items.find((p) => p.key.value === 'site_note').key.value = name;
    }, { atomic: false });
    saves++;
    const line = text.split('\n').findIndex((l) => /^ {2}["']?siteNote<img/.test(l)) + 1;
    expect(line).toBeGreaterThan(0);
    await expect.poll(overlayText, { timeout: 30_000 }).toContain(`${SCHEMA}:${line}:3`);
    const shown = await overlayText();
    expect(shown).toContain('redocly/rule/property-names-snake-case');
    expect(shown).toMatch(/"siteNote<img src=x onerror=.*" should use snake_case/);
    expect(await lintLineOfSave(saves)).toMatch(/✖/);
    await expect.poll(pageText, { timeout: 30_000 }).toContain(name);
    expect(await page.evaluate(() => ({ pwned: window.pwned ?? null, images: document.querySelectorAll('[data-live-overlay] img, #redoc img[src="x"]').length }))).toEqual({ pwned: null, images: 0 });
    save(SCHEMA, (doc) => {
      doc.get('properties').items.find((p) => p.key.value === name).key.value = 'site_note';
    }, { atomic: true });
    saves++;
    await expect.poll(overlayText, { timeout: 30_000 }).toBeNull();
    expect(await page.evaluate(readersPlace, { section: SECTION, operation: OPERATION })).toMatchObject({ marker: 'the same page', values: TYPED });
    expect(loads).toBe(1);
  });
});
