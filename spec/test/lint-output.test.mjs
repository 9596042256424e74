// What `npm run lint` prints for a problem in a file the root references: the file and line of
// the problem (not the root's), the offending name in the message, and a summary naming the file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { baseDocument } from './fixtures/style-base.mjs';
import { specDir } from './helpers.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lint-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(...args) {
  try {
    return { code: 0, out: execFileSync(process.execPath, [path.join(specDir, 'scripts/lint.mjs'), ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    return { code: error.status, out: `${error.stdout}${error.stderr}` };
  }
}

describe('npm run lint output', () => {
  it('points at the referenced file and line, names the property, and names the file in the summary', () => {
    const document = baseDocument();
    const widget = document.components.schemas.Widget;
    widget.properties.siteType = { type: 'string', description: 'Where the widget is installed.' };
    document.components.schemas.Widget = { $ref: 'schemas/Widget.yaml' };
    mkdirSync(path.join(dir, 'schemas'));
    const widgetText = stringify(widget);
    writeFileSync(path.join(dir, 'schemas/Widget.yaml'), widgetText);
    writeFileSync(path.join(dir, 'openapi.yaml'), stringify(document));
    const line = widgetText.split('\n').findIndex((l) => l.trim() === 'siteType:') + 1;

    const { code, out } = lint(path.join(dir, 'openapi.yaml'));
    expect(code).toBe(1);
    expect(out).toContain(`schemas/Widget.yaml:${line}:3  error  redocly/rule/property-names-snake-case  (properties.siteType)`);
    expect(out).toContain('"siteType" should use snake_case, like every property name');
    expect(out).toMatch(/✖ 1 problem in schemas\/Widget\.yaml \(1\)/);
    expect(out).not.toMatch(/problem.* in openapi\.yaml/);
  }, 60_000);
});
