// contract-reports/index.html of real runs of the CLI, opened from disk in Debian's Chromium
// (playwright-core, through test-support/browser.mjs: the run's one Chromium) with every request but the
// file itself blocked: against the Prism mock (rows with the bundle's declared statuses, those seen
// and the checks), against a mutant of the fake implementation (a failure with its curl line, no
// token), and against a target whose answers carry markup (shown as text, never as elements).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import { openBrowser } from '../../../test-support/browser.mjs';
import { allOperations, tokens, withFake } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../bin/cloudapi-contract.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'contract-html-'));
const tokensFile = path.join(dir, 'tokens.json');
let browser: Browser | undefined;

beforeAll(async () => {
  if (!existsSync(path.resolve(here, '../dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` in packages/contract (npm test does it through Turbo).');
  writeFileSync(tokensFile, JSON.stringify(tokens));
  browser = await openBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI with its reports in a directory of their own; the exit code and the report files. */
function runCli(name: string, args: string[]): Promise<{ code: number; stdout: string; html: string; json: any }> {
  const out = path.join(dir, name);
  const files = ['--html', `${out}/index.html`, '--json', `${out}/report.json`, '--junit', `${out}/junit.xml`];
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args, ...files], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, html: `${out}/index.html`, json: JSON.parse(readFileSync(`${out}/report.json`, 'utf8')) });
    });
  });
}

interface Row { id: string; route: string; declared: { status: string; seen: boolean }[]; seen: { status: string; undeclared: boolean }[]; counts: Record<string, number>; checks: Record<string, Record<string, string>>; verdict: string }

/**
 * Opens the file with nothing else allowed: what the page tried to fetch and what it logged as an
 * error (a Content-Security-Policy violation is one) are returned with it.
 */
async function open(file: string): Promise<{ page: Page; attempted: string[]; errors: string[]; close: () => Promise<void> }> {
  const context = await browser!.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const attempted: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort('blockedbyclient')));
  page.on('request', (request) => { if (request.url() !== url) attempted.push(request.url()); });
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return { page, attempted, errors, close: () => context.close() };
}

/** The operations table as a reader sees it. */
const rowsOf = (page: Page): Promise<Row[]> => page.$$eval('#operations-table > tbody > tr.operation', (trs) => trs.map((tr) => {
  const text = (node: Element | null) => node?.textContent?.trim() ?? '';
  const checks: Record<string, Record<string, string>> = {};
  for (const check of tr.querySelectorAll('table.checks tr[data-check]')) {
    const cells = [...check.querySelectorAll('td')].map((td) => td.textContent ?? '');
    checks[cells[0]!] = { passed: cells[1]!, failed: cells[2]!, warned: cells[3]!, skipped: cells[4]! };
  }
  return {
    id: text(tr.querySelector('.operation-id')),
    route: text(tr.querySelector('.route')),
    declared: [...tr.querySelectorAll('td.declared .status')].map((s) => ({ status: text(s), seen: s.classList.contains('seen') })),
    seen: [...tr.querySelectorAll('td.seen .status')].map((s) => ({ status: text(s), undeclared: s.classList.contains('undeclared') })),
    counts: Object.fromEntries(['ran', 'passed', 'failed', 'warned', 'skipped'].map((name) => [name, Number(text(tr.querySelector(`td.${name}`)))])),
    checks,
    verdict: text(tr.querySelector('td.verdict')),
  };
}));

const failuresOf = (page: Page) => page.$$eval('#failures li.failure', (items) => items.map((li) => ({
  heading: li.querySelector('strong')?.textContent ?? '', reason: li.querySelector('.reason')?.textContent ?? '', curl: li.querySelector('pre.curl')?.textContent ?? null,
})));

const declaredOf = (id: string) => Object.keys(allOperations.find((op) => op.id === id)!.raw.responses);

describe('the HTML report in Chromium', () => {
  it('of a run against the Prism mock: the summary, and a row per operation with its declared statuses, those seen and its checks', async () => {
    const mock = await startMock({ port: 0 });
    let run;
    try { run = await runCli('mock', ['--base-url', mock.baseUrl, '--only', 'Regions', '--examples', '0']); } finally { await mock.stop(); }
    expect(run.code, run.stdout).toBe(0);
    const { page, attempted, errors, close } = await open(run.html);
    try {
      expect(await page.textContent('#summary')).toMatch(/^✔ the target keeps the contract: success validated 2\/2 \(2 of \d+ operations selected\)$/);
      expect(await page.textContent('[data-figure="validated"] dd')).toBe('2/2');
      expect(await page.textContent('[data-figure="failures"] dd')).toBe('0');
      expect(await page.$('#failures')).toBeNull();
      const rows = await rowsOf(page);
      expect(rows.map((r) => r.id)).toEqual(['listRegions', 'getRegion']);
      for (const row of rows) {
        const reported = run.json.operations.find((op: any) => op.operationId === row.id);
        // The declared statuses are the bundle's, in its order; those marked seen are those the run saw.
        expect(row.declared.map((d) => d.status), row.id).toEqual(declaredOf(row.id));
        expect(row.declared.filter((d) => d.seen).map((d) => d.status), row.id).toEqual(declaredOf(row.id).filter((s) => reported.seenStatuses.includes(Number(s))));
        expect(row.seen.map((s) => Number(s.status)), row.id).toEqual(reported.seenStatuses);
        expect(row.seen.filter((s) => s.undeclared), row.id).toEqual([]);
        expect(row.counts, row.id).toEqual({ ran: reported.tally.pass + reported.tally.fail + reported.tally.warn, passed: reported.tally.pass, failed: 0, warned: reported.tally.warn, skipped: reported.tally.skip });
        expect(row.counts.passed, row.id).toBeGreaterThan(3);
        expect(row.verdict, row.id).toBe('✔ success validated');
      }
      const getRegion = rows.find((r) => r.id === 'getRegion')!;
      expect(getRegion.route).toBe('GET /regions/{regionId}');
      expect(getRegion.declared.find((d) => d.status === '200')).toEqual({ status: '200', seen: true });
      // The list's valid request answered 200 and its invalid variants 400: both declared statuses show as seen.
      const listRegions = rows.find((r) => r.id === 'listRegions')!;
      expect(listRegions.declared.filter((d) => d.seen).map((d) => d.status)).toEqual(['200', '400']);
      expect(Object.keys(listRegions.checks)).toEqual(expect.arrayContaining(['success', 'rejected', 'error names the field']));
      expect(getRegion.checks.success).toMatchObject({ failed: '', warned: '' });
      expect(Number(getRegion.checks.success!.passed)).toBeGreaterThan(0);
      expect(Object.keys(getRegion.checks)).toEqual(expect.arrayContaining(['success', 'body matches schema']));
      expect(attempted).toEqual([]);
      expect(errors).toEqual([]);
    } finally { await close(); }
  });

  it('of a run against a mutant that leaks a write-only field: the failure with its curl line, the token masked', async () => {
    const run = await withFake({ defect: 'leak-root-pass' }, (fake) => runCli('leak', ['--base-url', fake.baseUrl, '--tokens', tokensFile, '--only', 'createVolume,deleteVolume', '--examples', '0', '--no-negative']));
    expect(run.code, run.stdout).toBe(1);
    const { page, attempted, errors, close } = await open(run.html);
    try {
      expect(await page.textContent('#summary')).toMatch(/^✖ the target breaks the contract: \d+ failed checks?; success validated \d\/2/);
      const failures = await failuresOf(page);
      const leak = failures.find((f) => /^createVolume \(POST \/volumes\) › valid request \(example "inRegion"\) › no secret in the answer$/.test(f.heading));
      expect(leak, JSON.stringify(failures)).toBeDefined();
      expect(leak!.reason).toMatch(/createVolume answered 200 with write-only field root_pass at \/root_pass/);
      expect(leak!.curl).toMatch(/^curl -X POST 'http:\/\/127\.0\.0\.1:\d+\/v4\/volumes' -H "authorization: Bearer \$TOKEN" -H 'content-type: application\/json' --data-binary '\{.*"region":/);
      const content = await page.content();
      for (const { token } of tokens) expect(content).not.toContain(token);
      const row = (await rowsOf(page)).find((r) => r.id === 'createVolume')!;
      expect(row.counts.failed).toBeGreaterThan(0);
      expect(row.checks['no secret in the answer']!.failed).not.toBe('');
      expect(row.verdict).toMatch(/^✖ \d+ failed checks?$/);
      expect(attempted).toEqual([]);
      expect(errors).toEqual([]);
    } finally { await close(); }
  });

  it('of a run against a target whose answers carry markup: shown as text, no element of theirs on the page', async () => {
    const hostile = '</td></tr></table><script>document.title="pwned"</script><img src="http://127.0.0.1:9/x.png" onerror="document.title=1"><b class="injected">';
    const hooks = { before: (op: { id: string }) => (op.id === 'getRegion' ? { status: 500, body: { errors: [{ reason: hostile, field: 'id' }] } } : undefined) };
    const run = await withFake({ hooks }, (fake) => runCli('hostile', ['--base-url', fake.baseUrl, '--tokens', tokensFile, '--only', 'getRegion', '--examples', '0']));
    expect(run.code, run.stdout).toBe(1);
    const { page, attempted, errors, close } = await open(run.html);
    try {
      expect(await page.$$eval('script, img, b, iframe, object, embed, link, .injected', (found) => found.map((e) => e.outerHTML))).toEqual([]);
      expect(await page.title()).toMatch(/^Contract of /);
      const reasons = (await failuresOf(page)).map((f) => f.reason);
      expect(reasons.some((r) => r.includes('<script>document.title=\\"pwned\\"</script>')), JSON.stringify(reasons)).toBe(true);
      // The 500 the operation does not declare is marked, and the table keeps one row.
      const rows = await rowsOf(page);
      expect(rows.map((r) => r.id)).toEqual(['getRegion']);
      expect(rows[0]!.seen).toContainEqual({ status: '500', undeclared: true });
      expect(attempted).toEqual([]);
      expect(errors).toEqual([]);
    } finally { await close(); }
  });
});
