// The example app as its team runs it, in Debian's Chromium (playwright-core, through
// test-support/browser.mjs as every browser test): in development, the Vite dev server with
// @cloudapi/msw answering inside the page; in production, the build served by `vite preview`
// against the reference server (its built bin).
// The same scenario in both: connect, list the volumes, create one, see it listed, a validation
// error shown. Then the production build is opened from an origin the server does not trust: the
// page says the browser blocked the request, after one attempt. The build is checked to hold no
// MSW code, and its size is printed and held to a budget.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { build, createServer, preview, type Plugin, type PreviewServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from '../../../test-support/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-web-app-'));
/** The production JavaScript's budget, gzipped: the client (about 6 kB) and the page. MSW alone is several times this. */
const JS_GZIP_BUDGET = 9_000;
const TOKEN = `web-app-${process.pid}-${Date.now()}`;

let browser: Browser | undefined;
const stops: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const stop of stops.reverse()) await stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** The origin a Vite server listens on. */
function originOf(server: ViteDevServer | PreviewServer): string {
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('the Vite server is not listening on a port');
  return `http://127.0.0.1:${address.port}`;
}

/** The reference server from its built bin, trusting `origin`, with a token of this run. */
async function startReferenceServer(origin: string): Promise<string> {
  const bin = path.join(path.dirname(require.resolve('@cloudapi/server/package.json')), 'bin', 'cloudapi-server.mjs');
  const tokens = path.join(scratch, 'tokens.json');
  writeFileSync(tokens, JSON.stringify([{ token: TOKEN, scopes: '*', grants: 'all', restricted: false }]), { mode: 0o600 });
  const child: ChildProcess = spawn(process.execPath, [bin, '--port', '0', '--cors-origin', origin], {
    env: { ...process.env, DATA_DIR: path.join(scratch, 'data'), TOKENS_FILE: tokens, TRANSITION_MS: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stops.push(() => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(undefined);
    child.once('exit', resolve);
    child.kill('SIGTERM');
  }));
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const serving = /serving (http:\/\/\S+\/v4)/.exec(output);
      if (serving?.[1]) resolve(serving[1]);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', (chunk: Buffer) => { output += chunk; });
    child.once('exit', (code) => reject(new Error(`cloudapi-server exited ${code} before serving:\n${output}`)));
  });
}

/** What the page shows: its status line, its problems and its volumes. */
async function shown(page: Page) {
  return {
    status: await page.textContent('#status'),
    problems: await page.locator('#problems li').allTextContents(),
    volumes: await page.locator('#volumes li').allTextContents(),
  };
}

/** Connects the page to `baseUrl` with the token typed in, and waits for the status to change. */
async function connectPage(page: Page, baseUrl: string, token: string, expected: RegExp): Promise<void> {
  await page.fill('#base-url', baseUrl);
  await page.fill('#token', token);
  await page.click('#settings button[type=submit]');
  await page.waitForFunction((source) => new RegExp(source).test(document.querySelector('#status')?.textContent ?? ''), expected.source, { timeout: 30_000 });
}

/** Creates a volume with this label, and waits for the page's answer. */
async function create(page: Page, label: string): Promise<Awaited<ReturnType<typeof shown>>> {
  await page.fill('#label', label);
  await page.click('#create button[type=submit]');
  await page.waitForFunction(() => /^(Created|The volume was not created|The call failed)/.test(document.querySelector('#status')?.textContent ?? ''), undefined, { timeout: 30_000 });
  return shown(page);
}

/** The scenario both modes run: an empty list, a create that is listed, a label too long refused by field. */
async function scenario(page: Page, baseUrl: string, token: string) {
  await connectPage(page, baseUrl, token, /^\d+ volumes?$/);
  const before = await shown(page);
  const created = await create(page, 'web-app-volume');
  const refused = await create(page, 'x'.repeat(40));
  return { before, created, refused };
}

function expectScenario(seen: Awaited<ReturnType<typeof scenario>>): void {
  expect(seen.before).toEqual({ status: '0 volumes', problems: [], volumes: [] });
  expect(seen.created.status).toBe('Created web-app-volume.');
  expect(seen.created.volumes).toEqual([expect.stringMatching(/^web-app-volume \([\w-]+, 20 GB, \w+\)$/)]);
  expect(seen.refused.status).toBe('The volume was not created:');
  expect(seen.refused.problems).toEqual([expect.stringMatching(/^label: /)]);
  expect(seen.refused.volumes).toEqual(seen.created.volumes);
}

describe('in development: the Vite dev server, the API answered by @cloudapi/msw in the page', () => {
  it('lists, creates, shows the created volume and a validation error, and resets the mock data', async () => {
    // A host that does not exist: only the service worker can answer it.
    process.env.VITE_API_BASE_URL = 'http://api.cloud.test/v4';
    const server = await createServer({ root, logLevel: 'silent', server: { port: 0, host: '127.0.0.1', strictPort: false } });
    delete process.env.VITE_API_BASE_URL;
    stops.push(() => server.close());
    await server.listen();
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(originOf(server));
    await expect.poll(() => page.textContent('#mode'), { timeout: 30_000 }).toMatch(/^Mock API in this page/);
    expect(await page.inputValue('#base-url')).toBe('http://api.cloud.test/v4');
    const seen = await scenario(page, 'http://api.cloud.test/v4', 'any-token-msw-takes');
    expectScenario(seen);
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.click('#reset');
    await connectPage(page, 'http://api.cloud.test/v4', 'any-token-msw-takes', /^\d+ volumes?$/);
    expect(await shown(page)).toEqual({ status: '0 volumes', problems: [], volumes: [] });
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});

describe('in production: the build, served by vite preview, against the reference server', () => {
  const outDir = path.join(scratch, 'dist');
  const bundled: string[] = [];
  let origin = '';
  let baseUrl = '';

  beforeAll(async () => {
    // Every module the build put in a chunk, to show what is (not) in it.
    const recorder: Plugin = { name: 'record-modules', generateBundle(_, bundle) {
      for (const output of Object.values(bundle)) if (output.type === 'chunk') bundled.push(...output.moduleIds);
    } };
    // As `npm run build` does: Vitest sets NODE_ENV=test, which would make Vite build for development.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root, mode: 'production', logLevel: 'silent', plugins: [recorder], build: { outDir, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const server = await preview({ root, logLevel: 'silent', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
    stops.push(() => server.close());
    origin = originOf(server);
    baseUrl = await startReferenceServer(origin);
  }, 120_000);

  it('holds no MSW: not a module of it, not its worker script, not its strings, and its JavaScript stays small', () => {
    expect(bundled.length).toBeGreaterThan(3);
    expect(bundled.filter((id) => /[/\\](msw|@cloudapi[/\\]msw|packages[/\\]msw)[/\\]|src[/\\]mocks\.ts$/.test(id))).toEqual([]);
    const assets = path.join(outDir, 'assets');
    const scripts = readdirJs(assets);
    const text = scripts.map((file) => readFileSync(path.join(assets, file), 'utf8')).join('\n');
    // Strings of MSW's browser code (the worker's URL and a message it sends the worker): present
    // there, so their absence here means something.
    const markers = ['mockServiceWorker', 'MOCKING_ENABLED'];
    const mswBrowser = readFileSync(require.resolve('msw/browser'), 'utf8');
    for (const marker of markers) {
      expect(mswBrowser).toContain(marker);
      expect(text).not.toContain(marker);
    }
    expect(readdirJs(outDir)).toEqual([]);
    const gzip = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(assets, file)), { level: 9 }).length, 0);
    const minified = scripts.reduce((sum, file) => sum + readFileSync(path.join(assets, file)).length, 0);
    console.log(`web-app production build: ${scripts.length} script(s), ${minified} B minified, ${gzip} B gzipped (budget ${JS_GZIP_BUDGET} B)`);
    expect(gzip).toBeLessThanOrEqual(JS_GZIP_BUDGET);
  });

  it('lists, creates, shows the created volume and a validation error, with the token typed in', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(origin);
    expect(await page.textContent('#mode')).toBe('Production build: the API at the address below.');
    expectScenario(await scenario(page, baseUrl, TOKEN));
    // The token is in this tab's sessionStorage, not in the build.
    expect(await page.evaluate(() => sessionStorage.getItem('cloudapi-token'))).toBe(TOKEN);
    expect(readdirJs(path.join(outDir, 'assets')).map((file) => readFileSync(path.join(outDir, 'assets', file), 'utf8')).join('')).not.toContain(TOKEN);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('from an origin the server does not trust, says the browser blocked the request, after one attempt', async () => {
    const page = await browser!.newPage();
    const sent: string[] = [];
    page.on('request', (request) => { if (request.url().startsWith(baseUrl)) sent.push(`${request.method()} ${new URL(request.url()).pathname}`); });
    // *.localhost is this machine to Chromium, and another origin than the one the server trusts.
    const untrusted = origin.replace('127.0.0.1', 'app.localhost');
    await page.goto(untrusted);
    await connectPage(page, baseUrl, TOKEN, /^The call failed:$/);
    const { problems } = await shown(page);
    expect(problems).toEqual([`GET ${baseUrl}/volumes?page=1: blocked by the browser: the server answers, but not to ${untrusted} (CORS)`]);
    // Not retried: one GET of each list, and the client's no-cors HEAD that told the block from a missing server.
    expect(sent.filter((line) => line.startsWith('GET /v4/volumes'))).toEqual(['GET /v4/volumes']);
    expect(sent.filter((line) => line.startsWith('HEAD '))).toContain('HEAD /v4/volumes');
    await page.close();
  }, 90_000);
});

/** The JavaScript files of a folder (not its subfolders). */
function readdirJs(dir: string): string[] {
  return readdirSync(dir).filter((file) => file.endsWith('.js'));
}
