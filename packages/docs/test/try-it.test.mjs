// The "Try it" console in Debian's Chromium (playwright-core), against the real mock and the
// real reference server on loopback, both trusting only the docs' origin: for a public GET, a
// POST with a body (a named example chosen) and a secured GET, the page sends the request and
// shows the status and the body the target answers; with a wrong token the server's 401 body; the
// token stays in sessionStorage; a target that does not trust the page is explained; and no
// request of the page leaves 127.0.0.1. And a crafted link: `?mock=` naming a listener on another
// port is offered as "Custom", never as the mock, and the token reaches that listener only once
// the reader confirms its origin (kept for the tab); plain http to another machine is said too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
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
async function openPage(search = '') {
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
  await page.goto(`${docs.url}${search}`, { waitUntil: 'load' });
  return { context, page, requests, leaving, errors };
}

/**
 * Opens the operation's console: through the menu, as a reader does (its tag's entry first, when
 * that is closed), or, `atAddress`, on a page opened at the operation's own address.
 */
async function openConsole(page, op, { atAddress = false } = {}) {
  if (!atAddress) {
    const menu = page.locator('[data-component-name="Menu/Menu"]');
    const entry = menu.locator('a', { has: page.locator(`[data-text=${JSON.stringify(op.operation.summary)}]`) }).first();
    if (!(await entry.isVisible())) await menu.locator(`[data-text=${JSON.stringify(op.operation.tags[0])}]`).first().click();
    await entry.click();
  }
  const toggle = page.locator(`.try-it-toggle[data-operation=${JSON.stringify(op.operation.operationId)}]`);
  await toggle.click();
  const panel = page.locator(`.try-it-panel[data-operation=${JSON.stringify(op.operation.operationId)}]`);
  // The targets are listed (the mock's and the server's from try-it/targets.json, then the spec's).
  await panel.locator('select[aria-label="Target"] option').nth(1).waitFor({ state: 'attached', timeout: 10_000 });
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

  it('a link\'s ?mock= URL is offered as "Custom", and the token reaches it only once the reader confirms its origin, for the tab', async () => {
    // The link's author: a listener on another port that answers CORS for anyone, so that only
    // the page can keep the token from it.
    const captured = [];
    const listener = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        captured.push({ method: request.method, url: request.url, headers: request.headers, body });
        response.writeHead(request.method === 'OPTIONS' ? 204 : 200, {
          'access-control-allow-origin': request.headers.origin ?? '*',
          'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
          'access-control-allow-methods': 'GET, POST, PUT, DELETE',
          'content-type': 'application/json',
        });
        response.end(request.method === 'OPTIONS' ? undefined : '{"taken":true}');
      });
    });
    await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${listener.address().port}`;
    const linked = `${origin}/v4`;
    const tokenSeen = () => captured.some((r) => JSON.stringify(r).includes(TOKEN));
    let address = ''; // the operation's, where the reader had the page
    const { context, page, leaving, errors } = await openPage(`?mock=${encodeURIComponent(linked)}`);
    try {
      const panel = await openConsole(page, securedGet);
      const target = panel.locator('select[aria-label="Target"]');
      const options = await target.locator('option').allTextContents();
      expect(options).toContain(`Mock (${mock.baseUrl})`);
      expect(options).toContain(`Reference server (${server.baseUrl})`);
      expect(options).toContain(`Custom: ${linked} (from the link)`);
      expect(options.filter((text) => text.includes(linked)), 'the link\'s URL under no listed name').toEqual([`Custom: ${linked} (from the link)`]);
      expect(options).toContain(`${bundle.servers[0].description} (${bundle.servers[0].url})`);
      expect(await target.inputValue()).toBe(linked);
      await panel.locator('input[aria-label="Bearer token"]').fill(TOKEN);
      expect(await panel.locator('.try-it-target-note').textContent()).toBe(`A base URL this page does not list. Your token is sent to ${origin} only once you confirm it.`);

      // Send: the page asks, naming the origin, and nothing has gone out; Cancel sends nothing.
      const confirm = panel.locator('.try-it-confirm');
      await panel.locator('button.try-it-send').click();
      await panel.locator('.try-it-confirm, .try-it-status').first().waitFor();
      expect(tokenSeen(), 'the listener got the token before the reader confirmed its origin').toBe(false);
      expect(await confirm.getAttribute('data-origin')).toBe(origin);
      expect(await confirm.textContent()).toContain(`This page does not list ${origin} as a target`);
      expect(await confirm.locator('button.try-it-trust').textContent()).toBe(`Send my token to ${origin}`);
      expect(captured).toEqual([]);
      await confirm.locator('button.try-it-cancel').click();
      expect(await panel.locator('.try-it-answer').textContent()).toBe('Not sent: your token stays in this page.');
      expect(tokenSeen()).toBe(false);

      // Send again: asked again; confirmed, the listener gets the token and the page its answer.
      await panel.locator('button.try-it-send').click();
      await confirm.locator('button.try-it-trust').click();
      await panel.locator('.try-it-status').waitFor({ timeout: 15_000 });
      expect(tokenSeen()).toBe(true);
      expect(captured.find((r) => r.method === 'GET').headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('cloudapi.tryIt.trustedOrigins')))).toEqual([origin]);

      // Kept for this tab: the next Send asks nothing.
      captured.length = 0;
      await panel.locator('button.try-it-send').click();
      await expect.poll(() => captured.filter((r) => r.method === 'GET').length, { timeout: 15_000 }).toBe(1);
      expect(await confirm.count()).toBe(0);

      // A base URL the reader types, plain http on another machine: the page says so before anything leaves.
      await target.selectOption('');
      await panel.locator('input[aria-label="Base URL"]').fill('http://192.0.2.10:4010/v4');
      await panel.locator('button.try-it-send').click();
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain('http://192.0.2.10:4010 is plain http on another machine');
      await panel.screenshot({ path: path.join(resultsDir, 'docs-try-it-confirm.png') });
      await confirm.locator('button.try-it-cancel').click();
      expect(leaving, 'requests that would leave 127.0.0.1').toEqual([]);
      expect(errors).toEqual([]);
      address = new URL(page.url()).hash;
    } finally {
      await context.close();
    }

    // Another tab (its own sessionStorage), opened at the same link and operation, asks again, and
    // Cancel keeps the token there.
    const second = await openPage(`?mock=${encodeURIComponent(linked)}${address}`);
    try {
      captured.length = 0;
      const panel = await openConsole(second.page, securedGet, { atAddress: true });
      await panel.locator('input[aria-label="Bearer token"]').fill(TOKEN);
      await panel.locator('button.try-it-send').click();
      await panel.locator('.try-it-confirm button.try-it-cancel').click();
      expect(tokenSeen()).toBe(false);
    } finally {
      await second.context.close();
      await new Promise((resolve) => listener.close(resolve));
    }
  }, 120_000);
});
