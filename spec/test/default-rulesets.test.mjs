// Users lint the bundle with the tools' default rulesets too: Spectral's `spectral:oas` and
// Redocly's `recommended`, with no configuration of ours. Every finding they report must be a
// known false positive listed, with its reason, in DECISIONS.md ("Known false positives of the
// default rulesets"); anything else is a defect of the spec (or a new false positive to explain).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintOnce } from './cli-tools.mjs';
import { specDir } from './helpers.mjs';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'default-rulesets-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const DEFAULTS = { spectralRuleset: 'extends: ["spectral:oas"]\n', redoclyConfig: 'extends:\n  - recommended\n' };

// A document with a fault the default rulesets report (no operationId): the check can fail.
const bundleFile = path.join(specDir, 'dist', 'openapi.yaml');
const brokenFile = path.join(scratch, 'broken.json');
writeFileSync(brokenFile, JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Broken', version: '1.0.0' },
  paths: { '/things': { get: { responses: { 200: { description: 'Things.' } } } } },
}));
const reportOf = lintOnce([bundleFile, brokenFile], scratch, DEFAULTS);

/** The findings of both default rulesets over one file: [{ tool, rule, where, message }]. */
async function defaultFindings(file) {
  const { spectral, redocly } = await reportOf(file);
  return [
    ...spectral.map((f) => ({ tool: 'spectral:oas', rule: f.code, where: f.path.join('.'), message: f.message })),
    ...redocly.map((p) => ({ tool: 'redocly recommended', rule: p.ruleId, where: p.location?.[0]?.pointer, message: p.message })),
  ];
}

/** The known false positives DECISIONS.md lists: "tool rule" → reason. */
function knownFalsePositives() {
  const text = readFileSync(path.join(specDir, 'DECISIONS.md'), 'utf8');
  const start = text.indexOf('### Known false positives of the default rulesets');
  if (start < 0) throw new Error('DECISIONS.md has no "Known false positives of the default rulesets" section');
  const section = text.slice(start, text.indexOf('\n#', start + 10));
  return new Map([...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| (.+) \|$/gm)].map(([, tool, rule, reason]) => [`${tool} ${rule}`, reason.trim()]));
}

const unexplained = (findings, known) => findings.filter((f) => !known.has(`${f.tool} ${f.rule}`));

describe('the default rulesets of Spectral and Redocly, with no configuration', () => {
  const known = knownFalsePositives();

  it('lists each known false positive with its reason', () => {
    expect(known.size).toBeGreaterThan(0);
    for (const [rule, reason] of known) expect(reason.length, rule).toBeGreaterThan(40);
  });

  it('report nothing on the bundle but the listed false positives', async () => {
    const findings = await defaultFindings(bundleFile);
    const counts = {};
    for (const f of findings) counts[`${f.tool} ${f.rule}`] = (counts[`${f.tool} ${f.rule}`] || 0) + 1;
    console.log(`default rulesets over the bundle: ${JSON.stringify(counts)}`);
    expect(unexplained(findings, known).map((f) => `${f.tool} ${f.rule} at ${f.where}: ${f.message}`)).toEqual([]);
  }, 180_000);

  it('would report a finding that is not listed (the check can fail)', async () => {
    const found = unexplained(await defaultFindings(brokenFile), known);
    expect(found.some((f) => f.tool === 'spectral:oas' && f.rule === 'operation-operationId')).toBe(true);
    expect(found.some((f) => f.tool === 'redocly recommended' && f.rule === 'operation-operationId')).toBe(true);
  }, 180_000);
});
