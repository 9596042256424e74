// Lints share Spectral's Ajv instances (scripts/spectral-ajv.mjs): a second lint makes no new
// instance (nor compiles again what the first compiled), and an edited schema with an `$id` is never judged by
// the schema compiled under that `$id` before.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createLinters } from '../scripts/run-linters.mjs';
import { baseDocument } from './fixtures/style-base.mjs';
import { specDir } from './helpers.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'spectral-ajv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spectralFindings = (findings) => findings.filter((f) => f.tool === 'spectral').map((f) => `${f.rule} ${f.pointer}`).sort();

describe('Spectral\'s Ajv instances, shared by the lints of one linter set', () => {
  it('are made by the first lint and used by the next: a second lint makes none, finding the same', async () => {
    const file = path.join(dir, 'shared.yaml');
    writeFileSync(file, stringify(baseDocument()));
    const [first, second] = JSON.parse(execFileSync(process.execPath, [path.join(specDir, 'test/fixtures/ajv-compiles.mjs'), file], { encoding: 'utf8' }));
    expect(first.metaSchemasAdded).toBeGreaterThan(0);
    expect(second.metaSchemasAdded).toBe(0);
    expect(second.findings).toEqual(first.findings);
  });

  it('judges an edited schema with an $id by its new text, not by the one compiled under that $id before', async () => {
    const file = path.join(dir, 'with-id.yaml');
    const withWidgetSize = (type) => {
      const document = baseDocument();
      document.components.schemas.WidgetSize = {
        $id: 'https://widgets.example/schemas/widget-size',
        type,
        description: 'How big a widget is.',
        default: 'large',
      };
      document.components.schemas.Widget.properties.size = { $ref: '#/components/schemas/WidgetSize' };
      return stringify(document);
    };
    const linters = await createLinters({ specDir });
    writeFileSync(file, withWidgetSize('string'));
    const before = spectralFindings(await linters.lint(file));
    writeFileSync(file, withWidgetSize('integer'));
    const after = spectralFindings(await linters.lint(file));
    expect(before.filter((f) => f.includes('WidgetSize'))).toEqual([]);
    expect(after.filter((f) => f.includes('WidgetSize'))).toEqual(['oas3-valid-schema-example #/components/schemas/WidgetSize/default']);
  });
});
