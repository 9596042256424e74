// The built page in Debian's Chromium (playwright-core), with every request that is not the page
// itself blocked: every operation of the bundle renders with its code samples, nothing is
// fetched, nothing is logged as an error. The checks share one page, each leaving it as a reader
// could (the render of every operation last: it visits every tag). Screenshots go to test-results/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '@cloudapi/spec/bundle';
import { operations } from '@cloudapi/spec/walk';
import { CDN_LOGOS, svgDataUri } from '../src/offline.mjs';
import { clientSample, curlSample } from '../src/samples.mjs';
import { docsDistDir, serveStatic } from '../src/serve.mjs';
import { openBrowser } from '../../../test-support/browser.mjs';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(packageDir, 'test-results');
const bundle = loadBundle();
const allOperations = [...operations(bundle)];

let browser;
let server;

beforeAll(async () => {
  if (!existsSync(path.join(docsDistDir, 'index.html'))) throw new Error('packages/docs/dist/index.html is missing: run `npm run docs` first.');
  mkdirSync(resultsDir, { recursive: true });
  server = await serveStatic({ port: 0 });
  browser = await openBrowser();
}, 60_000);

afterAll(async () => {
  await shared?.context.close();
  await browser?.close();
  await server?.stop();
});

/**
 * Opens `url` in a new context where every request but the page's own document is aborted.
 * `attempted` lists what the page tried to fetch; `errors` its console errors and uncaught exceptions.
 */
async function openOffline(url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const documentUrl = url.split('#')[0];
  const attempted = [];
  const errors = [];
  await context.route('**/*', (route) => (route.request().url() === documentUrl ? route.continue() : route.abort('blockedbyclient')));
  page.on('request', (request) => {
    if (request.url() !== documentUrl && !/^(data|blob):/.test(request.url())) attempted.push(request.url());
  });
  page.on('websocket', (socket) => attempted.push(socket.url()));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, attempted, errors };
}

/**
 * The built page the checks share, opened offline on first use (loading its 3 MB again for each
 * would double the file's time): each check leaves it as a reader could, and the page must still
 * have fetched nothing and logged no error after it. A check that fails closes it, so that the
 * next one starts on a fresh page.
 */
let shared = null;
async function checkOnSharedPage(check) {
  shared ??= await openOffline(server.url);
  try {
    await check(shared.page);
    expect(shared.attempted, 'requests the page made').toEqual([]);
    expect(shared.errors, 'console errors').toEqual([]);
  } catch (error) {
    await shared.context.close();
    shared = null;
    throw error;
  }
}

const normalize = (text) => text.replace(/\s+/g, ' ').trim();
const MENU = '[data-component-name="Menu/Menu"]';
const CODE_BLOCK = '[data-component-name="CodeBlock/CodeBlock"]';

// Runs in the page, as a reader goes through the page: opens each tag's menu entry (a click,
// unless it is open already), notes the operation entries under it, and brings in each one's
// section, returning its heading and curl sample. Redoc renders a section when the reader
// reaches it: here by scrolling down to it from the tag's page (going to each one's address would
// cost the page as much again as the section itself; the client-sample and X-Filter checks go
// through an operation's own entry), or by its address when the page holds no place for it.
async function readMenu({ menu, tags, codeBlock }) {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const root = document.querySelector(menu);

  async function openTag(tag) {
    const label = [...root.querySelectorAll('[data-text]')].find((e) => e.getAttribute('data-text') === tag);
    if (!label) return [];
    const item = label.closest('[data-component-name="Menu/MenuItem"]');
    const under = () => [...item.querySelectorAll('a[href^="#/"]')];
    if (under().length === 0) label.closest('a').click();
    let opened = under();
    for (let waited = 0; waited < 100 && opened.length === 0; waited++) {
      await frame();
      opened = under();
    }
    return opened.map((a) => ({ tag, href: a.getAttribute('href'), label: a.querySelector('[data-text]')?.getAttribute('data-text'), text: a.textContent.trim().toLowerCase() }));
  }

  async function show(id) {
    const started = performance.now();
    for (;;) {
      const section = document.getElementById(id);
      const heading = section?.querySelector('h2');
      const curl = section && [...section.querySelectorAll(codeBlock)].find((c) => c.textContent.includes('curl'));
      if (heading && curl) return { heading: heading.textContent.trim(), curl: curl.textContent };
      if (performance.now() - started > 10_000) return { error: section ? 'no curl sample within 10 s' : 'not rendered within 10 s' };
      // The section, or the placeholder Redoc holds for it until it is scrolled to.
      const place = section ?? document.querySelector(`[data-section-id="/${CSS.escape(id)}"]`);
      if (place) place.scrollIntoView({ block: 'start' });
      else if (location.hash !== `#/${id}`) location.hash = `#/${id}`;
      await frame();
    }
  }

  const entries = [];
  for (const tag of tags) {
    for (const entry of await openTag(tag)) entries.push({ ...entry, shown: await show(entry.href.slice(2)) });
  }
  return entries;
}

/** Opens an operation as a reader does, through its tag's and its own menu entries; answers its section. */
async function openOperation(page, op) {
  const menu = page.locator(MENU);
  await menu.locator(`[data-text=${JSON.stringify(op.operation.tags[0])}]`).first().click();
  const link = menu.locator('a', { has: page.locator(`[data-text=${JSON.stringify(op.operation.summary)}]`) }).first();
  const href = await link.getAttribute('href');
  await link.click();
  return page.locator(`[id=${JSON.stringify(href.slice(2))}]`);
}

function byTag(list) {
  const groups = new Map();
  for (const op of list) {
    const tag = op.operation.tags?.[0] ?? 'default';
    groups.set(tag, [...(groups.get(tag) ?? []), op]);
  }
  return groups;
}

describe('the documentation page in Chromium, offline', () => {
  // Runs in the page: the words of the title that a line break splits or that stick out of it.
  function titleWordProblems() {
    const title = document.querySelector('[data-component-name="Typography/H1"]');
    if (!title) return ['no title on the page'];
    const box = title.getBoundingClientRect();
    const problems = [];
    const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (lines.size > 1) problems.push(`"${match[0]}" is split over ${lines.size} lines`);
        if (range.getBoundingClientRect().right > box.right + 1) problems.push(`"${match[0]}" sticks out of the title`);
      }
    }
    return problems;
  }

  /** Widths from 1024 px up: every 16 px to 2048, every px around the samples panel's breakpoint
   * (where the middle column is narrowest), then the common large screens. */
  const TITLE_WIDTHS = [...new Set([...Array.from({ length: 65 }, (_, i) => 1024 + i * 16),
    ...Array.from({ length: 41 }, (_, i) => 1250 + i), 2560, 3840])].sort((a, b) => a - b);

  it('wraps the title between words at every width from 1024 px up', async () => {
    await checkOnSharedPage(async (page) => {
      await page.locator('[data-component-name="Typography/H1"]').first().waitFor();
      const problems = [];
      // Chromium's own viewport emulation (what setViewportSize sends, without its other work per
      // change, which was half of this check's time); the page says which width it got.
      const chromium = await page.context().newCDPSession(page);
      for (const width of TITLE_WIDTHS) {
        await chromium.send('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: false });
        // The title's line boxes are read in the same evaluation as the page's width (reading them
        // lays the page out at the new width; no frame need be waited for).
        const { shown, found } = await page.evaluate(`({ shown: window.innerWidth, found: (${titleWordProblems})() })`);
        if (shown !== width) problems.push(`${width} px: the page is ${shown} px wide`);
        for (const problem of found) problems.push(`${width} px: ${problem}`);
      }
      await chromium.detach();
      expect(problems).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: path.join(resultsDir, 'docs-title-1280.png') });
    });
  }, 120_000);

  it('would catch a title split mid-word (negative control)', async () => {
    await checkOnSharedPage(async (page) => {
      const title = page.locator('[data-component-name="Typography/H1"]').first();
      await title.waitFor();
      await page.setViewportSize({ width: 1280, height: 900 });
      const splitting = { 'overflow-wrap': 'anywhere', 'word-break': 'break-all', 'font-size': '48px' };
      await title.evaluate((element, style) => {
        for (const [name, value] of Object.entries(style)) element.style.setProperty(name, value, 'important');
      }, splitting);
      expect((await page.evaluate(titleWordProblems)).join('\n')).toMatch(/is split over \d lines/);
      // The page as it was, for the next check.
      await title.evaluate((element, names) => { for (const name of names) element.style.removeProperty(name); }, Object.keys(splitting));
      expect(await page.evaluate(titleWordProblems)).toEqual([]);
      await page.setViewportSize({ width: 1400, height: 1000 });
    });
  }, 60_000);

  it('switches an operation to its @cloudapi/client sample and links the downloadable bundle', async () => {
    const op = allOperations.find((o) => o.operation.requestBody) ?? allOperations[0];
    await checkOnSharedPage(async (page) => {
      const section = await openOperation(page, op);
      await section.locator(CODE_BLOCK, { hasText: 'curl' }).first().waitFor();
      await section.getByRole('button', { name: 'curl', exact: true }).first().click();
      await page.getByRole('menuitem', { name: '@cloudapi/client' }).first().click();
      const sample = section.locator(CODE_BLOCK, { hasText: 'createClient' }).first();
      expect(normalize(await sample.textContent())).toContain(normalize(clientSample(bundle, op)));
      await page.screenshot({ path: path.join(resultsDir, 'docs-operation-client.png') });
      // The page keeps the language for every operation: back to curl, its default.
      await section.getByRole('button', { name: '@cloudapi/client', exact: true }).first().click();
      await page.getByRole('menuitem', { name: 'curl' }).first().click();
      expect(normalize(await section.locator(CODE_BLOCK, { hasText: 'curl' }).first().textContent())).toContain(normalize(curlSample(bundle, op)));

      await page.goto(`${server.url}#/`);
      for (const file of ['openapi.yaml', 'openapi.json', 'openapi.3.0.yaml', 'openapi.3.0.json', 'cloudapi.postman_collection.json']) {
        expect(await page.locator(`a[href="${file}"]`).count(), `a download link to ${file}`).toBeGreaterThan(0);
      }
      await page.screenshot({ path: path.join(resultsDir, 'docs-home.png') });
    });
  }, 60_000);

  it('shows a list\'s X-Filter header with its filter schema, not as any', async () => {
    const op = allOperations.find((o) => o.operation.operationId === 'listVolumes');
    await checkOnSharedPage(async (page) => {
      const section = await openOperation(page, op);
      // The schema's title and the header's description show only when Redoc resolved the schema.
      await section.getByText('X-Filter of listVolumes').first().waitFor({ timeout: 10_000 });
      await section.getByText('Filters and orders the list').first().waitFor({ timeout: 10_000 });
      await section.getByText('X-Filter of listVolumes').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(resultsDir, 'docs-x-filter.png') });
    });
  }, 60_000);

  it('renders every operation of the bundle with its curl sample, fetches nothing and logs no error', async () => {
    expect(allOperations.length).toBeGreaterThan(0);
    await checkOnSharedPage(async (page) => {
      expect(await page.title()).toContain(bundle.info.title);
      await page.locator(MENU).first().waitFor();
      // The menu, as a reader finds it: each tag's operation entries, and the section each leads to.
      const tags = [...byTag(allOperations).keys()];
      const entries = await page.evaluate(readMenu, { menu: MENU, tags, codeBlock: CODE_BLOCK });
      const problems = [];
      for (const op of allOperations) {
        const where = `${op.method.toUpperCase()} ${op.path} (${op.operation.tags?.[0]} › ${op.operation.summary})`;
        // The entry's text ends with the method's badge; each entry answers for one operation.
        const entry = entries.find((e) => !e.used && e.tag === op.operation.tags?.[0] && e.label === op.operation.summary && e.text.endsWith(op.method));
        if (!entry) problems.push(`${where}: no menu entry`);
        else if (entry.shown.error) problems.push(`${where}: ${entry.shown.error}`);
        else if (entry.shown.heading !== op.operation.summary) problems.push(`${where}: heading reads "${entry.shown.heading}"`);
        else if (!normalize(entry.shown.curl).includes(normalize(curlSample(bundle, op)))) problems.push(`${where}: curl sample differs:\n${entry.shown.curl}`);
        if (entry) entry.used = true;
      }
      expect(problems).toEqual([]);
      // One entry and one section per operation.
      expect(new Set(entries.filter((e) => e.used).map((e) => e.href)).size).toBe(allOperations.length);
      await page.screenshot({ path: path.join(resultsDir, 'docs-operation-curl.png') });
    });
  }, 300_000);

  it('would catch a page that fetches from a CDN or logs an error (negative controls)', async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-docs-offline-'));
    const fixture = await serveStatic({ root: scratch, port: 0 });
    try {
      // The built page with Redocly's CDN logo put back, as a build without src/offline.mjs would be.
      const attribution = svgDataUri(readFileSync(path.join(packageDir, 'assets', 'redocly-attribution.svg'), 'utf8'));
      const built = readFileSync(path.join(docsDistDir, 'index.html'), 'utf8');
      expect(built).toContain(attribution);
      const [cdnLogo] = CDN_LOGOS;
      writeFileSync(path.join(scratch, 'index.html'), built.split(attribution).join(cdnLogo));
      writeFileSync(path.join(scratch, 'broken.html'), '<!doctype html><title>x</title><script>console.error("boom")</script>');

      const withCdn = await openOffline(fixture.url);
      await withCdn.page.locator(MENU).waitFor();
      await expect.poll(() => withCdn.attempted, { timeout: 10_000 }).toContain(cdnLogo);
      await expect.poll(() => withCdn.errors.join('\n'), { timeout: 10_000 }).toMatch(/ERR_BLOCKED_BY_CLIENT/);
      await withCdn.context.close();

      const broken = await openOffline(`${fixture.url}broken.html`);
      await expect.poll(() => broken.errors, { timeout: 10_000 }).toEqual(['boom']);
      await broken.context.close();
    } finally {
      await fixture.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
