// The OpenAPI 3.0.3 edition read by 3.0 tools: Redocly's `recommended-strict` and Spectral's
// `spectral:oas` with all its rules, both with no configuration of ours, report no error on
// spec/dist/openapi.3.0.yaml (nullable beside a type, nullable enums listing null, unions a 3.0
// validator tells apart, examples valid under 3.0 semantics).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintOnce } from './cli-tools.mjs';
import { specDir } from './helpers.mjs';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'openapi30-lint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const STRICT = { spectralRuleset: 'extends: [["spectral:oas", "all"]]\n', redoclyConfig: 'extends:\n  - recommended-strict\n' };

const editionFile = path.join(specDir, 'dist', 'openapi.3.0.yaml');
// A 3.0 document with the faults the edition avoids: the check can fail.
const faultyFile = path.join(scratch, 'faulty.json');
const example = { label: null, status: null };
writeFileSync(faultyFile, JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Faulty', version: '1.0.0', description: 'Faults 3.0 tools trip on.', license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' } },
  servers: [{ url: 'https://api.example.com' }],
  security: [],
  tags: [{ name: 'things', description: 'Things.' }],
  paths: {
    '/things': {
      get: {
        operationId: 'getThing', summary: 'Get a thing', description: 'Gets a thing.', tags: ['things'],
        responses: {
          200: { description: 'A thing.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, example } } },
          400: { description: 'Bad.', content: { 'application/json': { schema: { type: 'object', properties: {} } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Label: { type: 'string', description: 'A label.' },
      Thing: {
        type: 'object', description: 'A thing.',
        properties: {
          label: { nullable: true, allOf: [{ $ref: '#/components/schemas/Label' }], description: 'Its label.' },
          status: { type: 'string', nullable: true, enum: ['ok'], description: 'Its status.' },
        },
      },
    },
  },
}));
const reportOf = lintOnce([editionFile, faultyFile], scratch, STRICT);

/** The errors of both linters over one file: ["tool rule at where: message"]. */
async function errorsOf(file) {
  const { spectral, redocly } = await reportOf(file);
  return [
    ...spectral.filter((f) => f.severity === 0).map((f) => `spectral ${f.code} at ${f.path.join('.')}: ${f.message}`),
    ...redocly.filter((p) => p.severity === 'error').map((p) => `redocly ${p.ruleId} at ${p.location?.[0]?.pointer}: ${p.message}`),
  ];
}

describe('the 3.0 edition under 3.0 linters', () => {
  it('has no error under Redocly recommended-strict and Spectral spectral:oas (all rules)', async () => {
    expect(await errorsOf(editionFile)).toEqual([]);
  }, 180_000);

  it('would report the 3.0 faults the edition avoids (the check can fail)', async () => {
    const errors = await errorsOf(faultyFile);
    expect(errors.some((e) => e.startsWith('redocly nullable-type-sibling'))).toBe(true);
    expect(errors.some((e) => e.startsWith('spectral oas3-valid-media-example'))).toBe(true);
  }, 180_000);
});
