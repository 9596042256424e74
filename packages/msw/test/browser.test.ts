// The handlers in real Chromium, through MSW's service worker: a page built from
// test/browser/app.ts (esbuild, for the browser: a Node built-in anywhere in the engine fails the
// build) calls the API with @cloudapi/client at a host that does not exist; the service worker
// answers from the stateful handlers, whose engine runs SQLite in WebAssembly in the page.
// Chromium is Debian's, launched with playwright-core through test-support/browser.mjs, as every
// browser test does.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from '../../../test-support/browser.mjs';

const require = createRequire(import.meta.url);
let server: Server;
let browser: Browser | undefined;
let origin = '';
const requested: string[] = [];

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./browser/app.ts', import.meta.url))],
    bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent',
  });
  console.log(`the page's bundle (client, msw, the handlers and the engine, unminified): ${(bundled.outputFiles[0]!.contents.length / 1e6).toFixed(2)} MB`);
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    '/': { type: 'text/html', body: '<!doctype html><html><head><meta charset="utf-8"><title>msw</title></head><body><script type="module" src="/app.js"></script></body></html>' },
    '/app.js': { type: 'text/javascript', body: bundled.outputFiles[0]!.contents },
    '/mockServiceWorker.js': { type: 'text/javascript', body: readFileSync(require.resolve('msw/mockServiceWorker.js')) },
  };
  server = createServer((request, response) => {
    requested.push(request.url ?? '');
    const file = files[request.url ?? ''];
    if (!file) { response.writeHead(404).end(); return; }
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await openBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('in Chromium, through the service worker', () => {
  const resultsOf = async (page: import('playwright-core').Page) => {
    await page.waitForFunction(() => (window as any).results !== undefined, undefined, { timeout: 60_000 });
    return page.evaluate(() => (window as any).results);
  };

  it('answers the client from the server\'s engine (SQLite in WebAssembly), keeps the state across a reload, and resets it', async () => {
    const page = await browser!.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(origin);
    const results = await resultsOf(page);
    expect(results.failed, results.failed).toBeUndefined();
    expect(results.controlled).toBe(true);
    expect(results.regions).toBe(6);
    expect(results.created).toMatchObject({ id: 1, label: 'from-chromium', size: 25, region: 'us-east', status: 'active', filesystem_path: '/dev/disk/by-id/scsi-0Cloud_Volume_from-chromium' });
    expect(results.read).toEqual(results.created);
    expect(results.listed).toBe(1);
    expect(results.filtered).toEqual({ data: [], page: 1, pages: 1, results: 0 });
    expect(results.mars).toEqual([{ field: 'region', reason: 'Region mars-1 does not exist' }]);
    expect(results.invalid.status).toBe(400);
    expect(results.invalid.errors[0]).toMatchObject({ field: 'size' });
    expect(results.unauthorized).toBe(401);
    expect(results.overridden).toEqual({ status: 404, reason: 'volume 99 is not here (an override)' });

    await page.evaluate(() => { delete (window as any).results; });
    await page.reload();
    const reloaded = (await resultsOf(page)).reloaded;
    expect(reloaded).toEqual({ kept: ['from-chromium'], afterReset: { data: [], page: 1, pages: 1, results: 0 }, againId: 1, stored: true });
    expect(problems).toEqual([]);
    // The API's host does not exist: nothing but the page's own files reached a server.
    expect(requested.filter((url) => url.startsWith('/v4'))).toEqual([]);
    await page.close();
  }, 120_000);
});
