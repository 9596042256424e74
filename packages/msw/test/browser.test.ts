// The handlers in real Chromium, through MSW's service worker: a page built from
// test/browser/app.ts (esbuild) calls the API with @cloudapi/client at a host that does not
// exist; the service worker answers from the handlers. Chromium is Debian's, launched with
// playwright-core through test-support/browser.mjs, as every browser test does.
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
  it('answers the client from the handlers: examples, state, validation, 401 and a typed override', async () => {
    const page = await browser!.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(origin);
    await page.waitForFunction(() => (window as any).results !== undefined, undefined, { timeout: 60_000 });
    const results = await page.evaluate(() => (window as any).results);
    expect(results.failed, results.failed).toBeUndefined();
    expect(problems).toEqual([]);
    expect(results.controlled).toBe(true);
    expect(results.regions).toBeGreaterThan(0);
    expect(results.created).toMatchObject({ label: 'from-chromium', size: 25, region: 'us-east' });
    expect(results.read).toEqual(results.created);
    expect(results.listed).toBe(1);
    expect(results.invalid.status).toBe(400);
    expect(results.invalid.errors[0]).toMatchObject({ field: 'size' });
    expect(results.unauthorized).toBe(401);
    expect(results.overridden).toEqual({ status: 404, reason: 'volume 99 is not here (an override)' });
    // The API's host does not exist: nothing but the page's own files reached a server.
    expect(requested.filter((url) => url.startsWith('/v4'))).toEqual([]);
    await page.close();
  }, 120_000);
});
