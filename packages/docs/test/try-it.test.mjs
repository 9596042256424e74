// The "Try it" console in Debian's Chromium (playwright-core), against the real mock and the
// real reference server on loopback, both trusting only the docs' origin: for a public GET, a
// POST with a body (a named example chosen) and a secured GET, the page sends the request and
// shows the status and the body the target answers; with a wrong token the server's 401 body; the
// token stays in sessionStorage; a target that does not trust the page is explained; and no
// request of the page leaves 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '@cloudapi/mock';
import { startServer } from '@cloudapi/server';
import { loadBundle } from '@cloudapi/spec/bundle';
import { operations } from '@cloudapi/spec/walk';
import { docsDistDir, serveStatic } from '../src/serve.mjs';
import { tryItData } from '../src/try-it.mjs';
import { openBrowser } from '../../../test-support/browser.mjs';

const require = createRequire(import.meta.url);
const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
const bundle = loadBundle();
const consoleOps = new Map(tryItData(bundle).operations.map((op) => [op.id, op]));
const all = [...operations(bundle)].map((op) => ({ ...op, console: consoleOps.get(op.operation.operationId) }));

// The three operations, chosen from the bundle by what they are.
const publicGet = all.find((op) => op.method === 'get' && op.console.auth === 'none' && !op.path.includes('{'));
const postWithBody = all.find((op) => op.method === 'post' && op.console.body?.examples.length > 1 && op.operation.responses['200']);
const securedGet = all.find((op) => op.method === 'get' && op.console.auth === 'required' && op.path.includes('{'));
const TOKEN = 'try-it-test-token';

let browser;
let docs;
let mock;
let untrusting; // a mock that trusts only its default origins, not this page's
let server;
let dataDir;
const targets = [];

beforeAll(async () => {
  if (!existsSync(path.join(docsDistDir, 'index.html'))) throw new Error('packages/docs/dist/index.html is missing: run `npm run docs` first.');
  expect([publicGet, postWithBody, securedGet].every(Boolean), 'the bundle has a public GET, a POST with named examples and a secured GET').toBe(true);
  mkdirSync(resultsDir, { recursive: true });
  docs = await serveStatic({ port: 0, json: { '/try-it/targets.json': () => ({ targets }) } });
  const origin = new URL(docs.url).origin;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-try-it-'));
  const tokensFile = path.join(dataDir, 'tokens.json');
  writeFileSync(tokensFile, JSON.stringify([{ token: TOKEN, scopes: '*', grants: 'all', restricted: false }]));
  [mock, untrusting, server, browser] = await Promise.all([
    startMock({ port: 0, corsOrigins: [origin], log: () => {} }),
    startMock({ port: 0, log: () => {} }),
    startServer({ port: 0, dataDir, tokensFile, transitionMs: 0, logLevel: 'silent', corsOrigins: [origin] }),
    openBrowser(),
  ]);
  targets.push({ name: 'Mock', url: mock.baseUrl }, { name: 'Reference server', url: server.baseUrl });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([docs?.stop(), mock?.stop(), untrusting?.stop(), server?.close()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A page whose every request is checked: anything not on 127.0.0.1 is aborted and noted. */
async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const requests = [];
  const leaving = [];
  const errors = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    if (/^(data|blob):/.test(url) || new URL(url).hostname === '127.0.0.1') return route.continue();
    leaving.push(url);
    return route.abort('blockedbyclient');
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await page.goto(docs.url, { waitUntil: 'load' });
  return { context, page, requests, leaving, errors };
}

/** Opens the operation through the menu, as a reader does, then its console. */
async function openConsole(page, op) {
  const menu = page.locator('[data-component-name="Menu/Menu"]');
  await menu.locator(`[data-text=${JSON.stringify(op.operation.tags[0])}]`).first().click();
  await menu.locator('a', { has: page.locator(`[data-text=${JSON.stringify(op.operation.summary)}]`) }).first().click();
  const toggle = page.locator(`.try-it-toggle[data-operation=${JSON.stringify(op.operation.operationId)}]`);
  await toggle.click();
  const panel = page.locator(`.try-it-panel[data-operation=${JSON.stringify(op.operation.operationId)}]`);
  await expect.poll(() => panel.locator('select[aria-label="Target"] option').count()).toBeGreaterThan(1);
  return panel;
}

async function send(panel) {
  await panel.locator('button.try-it-send').click();
  const status = panel.locator('.try-it-status');
  await status.waitFor({ timeout: 15_000 });
  return { status: Number(await status.getAttribute('data-status')), body: await panel.locator('.try-it-body').textContent(), headers: await panel.locator('.try-it-headers pre').textContent() };
}

/** What the target answers the same request sent from here: the page must show exactly that. */
async function direct(url, init) {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

describe('the Try it console', () => {
  it('sends a public GET, a POST with a chosen example and a secured GET to the mock, showing 200 and the body; a wrong token shows the 401 body; an untrusting target is explained; nothing leaves 127.0.0.1', async () => {
    const { context, page, requests, leaving, errors } = await openPage();
    try {
      // A public GET: prefilled from the spec's examples, no token field.
      let panel = await openConsole(page, publicGet);
      expect(await panel.locator('select[aria-label="Target"]').inputValue()).toBe(mock.baseUrl);
      expect(await panel.locator('input[aria-label="Bearer token"]').count()).toBe(0);
      let shown = await send(panel);
      const curl = await panel.locator('.try-it-curl').textContent();
      expect(curl).toMatch(new RegExp(`^curl '${mock.baseUrl.replace(/[.]/g, '\\.')}${publicGet.path}`));
      const expectedGet = await direct(curl.match(/'([^']+)'/)[1]);
      expect(shown.status).toBe(200);
      expect(JSON.parse(shown.body)).toEqual(expectedGet.body);
      expect(shown.headers).toMatch(/content-type: application\/json/);

      // A POST with a body: the second named example chosen, the token typed once for the tab.
      panel = await openConsole(page, postWithBody);
      const second = postWithBody.console.body.examples[1];
      await panel.locator('select[aria-label="Example"]').selectOption({ label: second.summary });
      expect(JSON.parse(await panel.locator('textarea[aria-label="Request body"]').inputValue())).toEqual(JSON.parse(second.text));
      await panel.locator('input[aria-label="Bearer token"]').fill(TOKEN);
      shown = await send(panel);
      expect(shown.status).toBe(200);
      const postCurl = await panel.locator('.try-it-curl').textContent();
      expect(postCurl).toContain('-X POST');
      expect(postCurl).toContain('$CLOUDAPI_TOKEN');
      expect(postCurl).not.toContain(TOKEN);
      const url = postCurl.match(/'([^']+)'/)[1];
      const expectedPost = await direct(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: second.text });
      expect(JSON.parse(shown.body)).toEqual(expectedPost.body);
      expect(await page.evaluate(() => ({ tab: sessionStorage.getItem('cloudapi.tryIt.token'), kept: localStorage.length }))).toEqual({ tab: TOKEN, kept: 0 });

      // A secured GET: the token is already there (this tab); the mock answers 200.
      panel = await openConsole(page, securedGet);
      expect(await panel.locator('input[aria-label="Bearer token"]').inputValue()).toBe(TOKEN);
      shown = await send(panel);
      expect(shown.status).toBe(200);
      const securedUrl = (await panel.locator('.try-it-curl').textContent()).match(/'([^']+)'/)[1];
      expect(JSON.parse(shown.body)).toEqual((await direct(securedUrl, { headers: { authorization: `Bearer ${TOKEN}` } })).body);

      // A wrong token, sent to the reference server (the mock takes any bearer token): its 401 body.
      await panel.locator('select[aria-label="Target"]').selectOption(server.baseUrl);
      await panel.locator('input[aria-label="Bearer token"]').fill('not-a-known-token');
      shown = await send(panel);
      expect(shown.status).toBe(401);
      const refused = JSON.parse(shown.body);
      expect(refused.errors[0].reason).toEqual(expect.any(String));
      const serverUrl = securedUrl.replace(mock.baseUrl, server.baseUrl);
      expect(await direct(serverUrl, { headers: { authorization: 'Bearer not-a-known-token' } })).toEqual({ status: 401, body: refused });
      // And with no token at all, the mock's own 401 body.
      await panel.locator('select[aria-label="Target"]').selectOption(mock.baseUrl);
      await panel.locator('input[aria-label="Bearer token"]').fill('');
      shown = await send(panel);
      expect(shown.status).toBe(401);
      expect(JSON.parse(shown.body)).toEqual((await direct(securedUrl)).body);
      await page.screenshot({ path: path.join(resultsDir, 'docs-try-it.png') });

      // A target that does not trust the page's origin: the page says why and what to set.
      await panel.locator('select[aria-label="Target"]').selectOption('');
      await panel.locator('input[aria-label="Base URL"]').fill(untrusting.baseUrl);
      await panel.locator('button.try-it-send').click();
      await expect.poll(() => panel.locator('.try-it-error').textContent(), { timeout: 15_000 }).toMatch(/does it trust this page's origin \(http:\/\/127\.0\.0\.1:\d+\)\? Start it with --cors-origin/);

      expect(leaving, 'requests that would leave 127.0.0.1').toEqual([]);
      expect(requests.some((u) => u.startsWith(mock.baseUrl)) && requests.some((u) => u.startsWith(server.baseUrl)), 'the page called both targets').toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
