// The HTML report as a pure function of a run's result: per-operation status coverage (declared,
// seen, undeclared), the checks of each row, each failure with its curl line, the summary, and
// every value from the target escaped. test/report-browser.test.ts opens real runs' pages in Chromium.
import { describe, expect, it } from 'vitest';
import { statusCoverage, toHtml, type ContractResult, type OperationResult } from '../src/index.js';
import { noteSeenStatus } from '../src/checks/status-coverage.js';

const HOSTILE = '</td></tr><script>alert(1)</script><img src=x onerror="alert(2)"><a href="http://evil.example/">x</a>';

function operation(overrides: Partial<OperationResult>): OperationResult {
  return {
    operationId: 'getRegion', method: 'GET', path: '/regions/{regionId}', tags: ['Regions'], security: 'secured', requests: [], notes: [],
    successValidated: true, tally: { pass: 0, fail: 0, warn: 0, skip: 0 }, declaredStatuses: ['200', '401', '404'], seenStatuses: [200, 401], ...overrides,
  };
}

function result(operations: OperationResult[], overrides: Partial<ContractResult> = {}): ContractResult {
  const fail = operations.reduce((n, op) => n + op.tally.fail, 0);
  return {
    api: 'Cloud Account Management API 4.115.0', baseUrl: 'http://127.0.0.1:4010/v4', target: 'implementation', detection: 'chosen with --target', token: 'given with --token',
    notes: [], notRun: [], operations, setup: [], cleanup: { removed: [], leftBehind: [], removedAfterCheck: [] }, dryRun: false, planned: [], seed: 7,
    coverage: { selected: operations.length, total: 128, exercised: operations.length, successValidated: operations.filter((op) => op.successValidated).length, unproven: 0 },
    tally: { pass: 3, fail, warn: 0, skip: 1 }, durationMs: 1234, exitCode: fail ? 1 : 0, ok: !fail, ...overrides,
  };
}

const passing = operation({
  requests: [
    { label: 'valid request', kind: 'positive', method: 'GET', url: 'http://127.0.0.1:4010/v4/regions/us-east', status: 200, checks: [{ name: 'success', outcome: 'pass', reason: '' }, { name: 'body matches schema', outcome: 'pass', reason: '' }] },
    { label: '401 without a token', kind: 'auth', method: 'GET', url: 'http://127.0.0.1:4010/v4/regions/us-east', status: 401, checks: [{ name: '401 without a token', outcome: 'pass', reason: '' }, { name: 'no secret in the answer', outcome: 'skip', reason: 'no body' }] },
  ],
  tally: { pass: 3, fail: 0, warn: 0, skip: 1 },
});
const failing = operation({
  operationId: 'createVolume', method: 'POST', path: '/volumes', successValidated: false, declaredStatuses: ['200', '4XX', 'default'], seenStatuses: [200, 422, 503],
  requests: [{
    label: 'valid request (example "inRegion")', kind: 'positive', method: 'POST', url: 'http://127.0.0.1:4010/v4/volumes', status: 200,
    checks: [{ name: 'body matches schema', outcome: 'fail', reason: `createVolume answered 200 with label ${HOSTILE}` }],
    curl: `curl -X POST 'http://127.0.0.1:4010/v4/volumes' -H "authorization: Bearer $TOKEN" --data-binary '{"label":"${HOSTILE}"}'`,
  }, {
    label: 'every page of listVolumes', kind: 'pagination', checks: [{ name: 'each item once across the pages', outcome: 'fail', reason: 'volumeId=3 came twice' }],
  }],
  tally: { pass: 0, fail: 2, warn: 0, skip: 0 },
});

/** The row of an operation in the operations table. */
const rowOf = (html: string, id: string) => html.split('<tr class="operation ').slice(1).map((row) => row.split('</tbody>')[0]!)
  .find((row) => row.includes(` data-operation="${id}">`)) ?? '';

// Escaped values hold no < > or ", so every tag of the page is found here, with its attributes.
const TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'h2', 'p', 'dl', 'div', 'dt', 'dd', 'section', 'ol', 'ul', 'li', 'strong', 'pre', 'code', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'details', 'summary', 'span']);
const ATTRIBUTES = /^(lang|charset|http-equiv|content|name|class|id|title|open|data-[a-z-]+)$/;
/** Tags and attributes of the page that a report of its own would not write. */
function foreignMarkup(html: string): string[] {
  const foreign: string[] = [];
  for (const [tag, name = '', rest = ''] of html.replace(/^<!doctype html>/, '').matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    if (!TAGS.has(name)) foreign.push(tag);
    for (const [, attribute] of rest.matchAll(/\s([^\s=]+)(?:="[^"]*")?/g)) if (!ATTRIBUTES.test(attribute!)) foreign.push(`${attribute} in ${tag}`);
  }
  return foreign;
}

describe('status coverage', () => {
  it('matches each seen status to its exact code, then its range, then default; the rest is undeclared', () => {
    expect(statusCoverage(['200', '404', '4XX', 'default'], [200, 404, 422, 500])).toEqual({
      declared: [{ status: '200', seen: [200] }, { status: '404', seen: [404] }, { status: '4XX', seen: [422] }, { status: 'default', seen: [500] }],
      undeclared: [],
    });
    expect(statusCoverage(['200', '401'], [200, 500])).toEqual({ declared: [{ status: '200', seen: [200] }, { status: '401', seen: [] }], undeclared: [500] });
  });

  it('notes each status once, sorted, and no answer not at all', () => {
    const seen: number[] = [];
    for (const status of [404, 200, null, 404, undefined, 201]) noteSeenStatus(seen, status);
    expect(seen).toEqual([200, 201, 404]);
  });
});

describe('the HTML report', () => {
  const html = toHtml(result([passing, failing]));

  it('is one page with inline CSS, no script and nothing to fetch', () => {
    expect(html).toMatch(/^<!doctype html>\n<html lang="en"><head><meta charset="utf-8">/);
    expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">');
    expect(foreignMarkup(html)).toEqual([]);
    expect(html).not.toMatch(/@import|url\(/i);
  });

  it('sums up the run: the summary line, validated N/M and the failures', () => {
    expect(html).toContain('<p class="summary-line exit-1" id="summary" data-exit-code="1">✖ the target breaks the contract: 2 failed checks; success validated 1/2 (2 of 128 operations selected)</p>');
    expect(html).toContain('<div data-figure="validated"><dt>success validated</dt><dd>1/2</dd></div>');
    expect(html).toContain('<div data-figure="failures"><dt>failed checks</dt><dd>2</dd></div>');
    expect(html).toContain('<div data-figure="statuses"><dt>declared statuses seen</dt><dd>5/6</dd></div>');
  });

  it('gives each operation a row with its declared statuses, those seen, and its checks', () => {
    const row = rowOf(html, 'getRegion');
    expect(row).toContain('<span class="status seen" data-status="200" title="seen: 200">200</span><span class="status seen" data-status="401" title="seen: 401">401</span><span class="status unseen" data-status="404" title="not seen in this run">404</span>');
    expect(row).toContain('<td class="n ran" data-count="3">3</td><td class="n passed" data-count="3">3</td><td class="n failed" data-count="0">0</td>');
    expect(row).toContain('<td class="n skipped" data-count="1">1</td>');
    expect(row).toContain('<tr class="outcome-pass" data-check="success"><td>success</td><td class="n" data-outcome="pass">1</td>');
    expect(row).toContain('<tr class="outcome-skip" data-check="no secret in the answer">');
    expect(row).toContain('<td class="verdict">✔ success validated</td>');
    const other = rowOf(html, 'createVolume');
    // 422 is covered by 4XX and 503 by default: nothing undeclared.
    expect(other).toContain('<span class="status seen" data-status="4XX" title="seen: 422">4XX</span><span class="status seen" data-status="default" title="seen: 503">default</span>');
    expect(other).not.toContain('undeclared');
    expect(other).toContain('<td class="verdict">✖ 2 failed checks</td>');
  });

  it('marks a seen status the operation does not declare', () => {
    const row = rowOf(toHtml(result([operation({ seenStatuses: [200, 500] })])), 'getRegion');
    expect(row).toContain('<span class="status undeclared" data-status="500" title="not declared by the operation">500</span>');
  });

  it('lists each failure with its request as a curl line, or says there is no single request', () => {
    const items = html.match(/<li class="failure"[\s\S]*?<\/li>/g) ?? [];
    expect(items).toHaveLength(2);
    expect(items[0]).toContain('<pre class="curl"><code>curl -X POST &apos;http://127.0.0.1:4010/v4/volumes&apos; -H &quot;authorization: Bearer $TOKEN&quot; --data-binary');
    expect(items[1]).toContain('no single request to repeat');
  });

  it('escapes what the target answered, in reasons and curl lines', () => {
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;/td&gt;&lt;/tr&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
    const hostileIds = toHtml(result([operation({ operationId: HOSTILE, requests: [{ label: HOSTILE, kind: 'positive', checks: [{ name: HOSTILE, outcome: 'fail', reason: HOSTILE }] }], tally: { pass: 0, fail: 1, warn: 0, skip: 0 } })], { notes: [HOSTILE], abort: HOSTILE }));
    expect(hostileIds).toContain('&lt;script&gt;');
    expect(foreignMarkup(hostileIds)).toEqual([]);
    // The check itself finds markup that was let through.
    expect(foreignMarkup(hostileIds.replace('&lt;script&gt;', '<script>'))).toEqual(['<script>']);
  });

  it('says why a run stopped, and what a dry run would send', () => {
    const dry = toHtml(result([operation({ seenStatuses: [], successValidated: false })], { dryRun: true, planned: ['GET http://127.0.0.1:4010/v4/regions  (valid request)'], abort: 'the deadline of 90 s was reached (--deadline)', exitCode: 2 }));
    expect(dry).toContain('<p class="abort"><strong>The run stopped:</strong> the deadline of 90 s was reached (--deadline)</p>');
    expect(dry).toContain('<section id="planned"><h2>Requests a run would send (none sent)</h2><ul class="planned"><li>GET http://127.0.0.1:4010/v4/regions  (valid request)</li></ul></section>');
  });
});
