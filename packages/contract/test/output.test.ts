// What a person reads: a hint when the base URL misses the spec's base path, skipped checks listed
// by --verbose, a table that fits 100 columns, and no build banner before `npm run contract`.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../src/index.js';
import { REPORT_COLUMNS } from '../src/report/report.js';
import { runAgainst, tableOf, withFake } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const columns = (line: string) => [...line].length;
describe('the report', () => {
  it('hints at the base path when every valid request is answered 404', async () => {
    await withFake({}, async (fake) => {
      const withoutBase = await runAgainst(fake, { baseUrl: fake.baseUrl.replace(/\/v4$/, ''), only: ['Regions'], negative: false });
      expect(withoutBase.hints).toEqual([expect.stringMatching(/^2 of 2 valid requests were answered 404: does --base-url end in the API's base path \(\/v4, from the spec's server URL\) \(such as http:\/\/127\.0\.0\.1:\d+\/v4\)\?$/)]);
      expect(formatReport(withoutBase)).toMatch(/\nhint: 2 of 2 valid requests were answered 404/);
      const right = await runAgainst(fake, { only: ['Regions'], negative: false });
      expect(right.hints).toEqual([]);
      expect(formatReport(right)).not.toMatch(/hint:/);
    });
  });

  it('lists skipped checks with their reasons under --verbose, and counts them otherwise', async () => {
    // A hanging getVolume: its later requests are not sent, each a skipped check with the reason.
    await withFake({ defect: 'hang', defectOp: 'getVolume' }, async (fake) => {
      const result = await runAgainst(fake, { only: ['createVolume', 'getVolume'], timeoutMs: 800, negative: false });
      expect(result.tally.skip).toBeGreaterThan(2);
      const verbose = formatReport(result, { verbose: true });
      const listed = verbose.split('\n').filter((l) => /^ {2}- .+ \(\d+×: /.test(l));
      const sum = listed.reduce((n, l) => n + Number(/\((\d+)×/.exec(l)![1]), 0);
      expect(verbose).toContain(`Skipped checks (${result.tally.skip}), by check and reason:`);
      expect(sum).toBe(result.tally.skip);
      for (const op of result.operations) for (const r of op.requests) for (const c of r.checks) {
        if (c.outcome === 'skip') expect(listed.some((l) => l.startsWith(`  - ${c.name}: ${c.reason} (`)), c.reason).toBe(true);
      }
      const plain = formatReport(result);
      expect(plain).not.toContain('Skipped checks');
      expect(plain).toMatch(new RegExp(`${result.tally.skip} skipped checks? \\(--verbose lists them`));
    });
  });

  it('keeps the operations table and the notes above it within 100 columns', async () => {
    expect(REPORT_COLUMNS).toBe(100);
    await withFake({ defect: 'ignore-updates' }, async (fake) => {
      const result = await runAgainst(fake, {});
      const text = formatReport(result);
      const table = tableOf(text);
      expect(table.length).toBe(result.operations.length + 1);
      // a long first problem is cut, not wrapped
      expect(table.some((l) => l.endsWith('…'))).toBe(true);
      const notes = text.split('\n').slice(0, text.split('\n').indexOf('')).filter((l) => l.startsWith('  '));
      expect(notes.length).toBeGreaterThan(1);
      for (const line of [...table, ...notes]) expect(columns(line), line).toBeLessThanOrEqual(100);
    });
  });
});

describe('npm run contract', () => {
  it('shows no build banner when everything is cached', async () => {
    const script = path.resolve(here, '../scripts/build-quietly.mjs');
    const run = () => new Promise<{ code: number; out: string }>((resolve) => {
      execFile(process.execPath, [script, 'contract'], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }));
    });
    const first = await run();
    expect(first.code, first.out).toBe(0);
    expect(first.out).not.toMatch(/turbo|Tasks:|Packages in scope/);
    // The first run built what was not cached (one line at most); now everything is cached.
    expect(await run()).toEqual({ code: 0, out: '' });
  });
});
