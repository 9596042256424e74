// The lint of a change: which path items an edited file reaches, and the root that lists only
// those, with every line where it was so findings point at the real lines.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createSourceIndex } from '@cloudapi/spec/sources';
import { focusedRoot } from '../src/focus.mjs';
import { writeSplitSpec } from './support/fixture.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'dev-focus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeSplitSpec(dir);
const sources = createSourceIndex(dir);
const rootText = readFileSync(path.join(dir, 'openapi.yaml'), 'utf8');

describe('what an edit reaches', () => {
  it('follows references through other files, and only those', () => {
    expect(sources.affectedBy(['components/parameters/WidgetId.yaml'])).toEqual({ paths: ['/widgets/{widgetId}'], fromRoot: true });
    // ErrorDetail is reached through ErrorResponse and the shared responses, from both path items.
    expect(sources.affectedBy(['components/schemas/ErrorDetail.yaml']).paths.sort()).toEqual(['/widgets', '/widgets/{widgetId}']);
    expect(sources.affectedBy(['components/schemas/WidgetCreateRequest.yaml'])).toEqual({ paths: ['/widgets'], fromRoot: true });
    expect(sources.affectedBy(['components/schemas/Unused.yaml'])).toEqual({ paths: [], fromRoot: false });
  });

  it('names the files a path item reaches: what the lint of a change looks at', () => {
    const reached = sources.reachedFrom(['/widgets/{widgetId}']);
    expect(reached).toContain('openapi.yaml');
    expect(reached).toContain('paths/widgets_{widgetId}.yaml');
    expect(reached).toContain('components/parameters/WidgetId.yaml');
    expect(reached).toContain('components/schemas/ErrorDetail.yaml'); // through ErrorResponse
    expect(reached).not.toContain('components/schemas/WidgetCreateRequest.yaml'); // only /widgets uses it
    expect(reached).not.toContain('paths/widgets.yaml');
    expect(sources.reachedFrom([])).toEqual(new Set(['openapi.yaml']));
  });
});

describe('focusedRoot', () => {
  it('keeps the path items asked for, and every line where it was', () => {
    const text = focusedRoot(rootText, sources.pathEntries(), ['/widgets/{widgetId}']);
    expect(Object.keys(parse(text).paths)).toEqual(['/widgets/{widgetId}']);
    const [original, focused] = [rootText.split('\n'), text.split('\n')];
    expect(focused).toHaveLength(original.length);
    focused.forEach((line, i) => expect(line === original[i] || line === `#${original[i]}`).toBe(true));
    expect(parse(text).info).toEqual(parse(rootText).info);
  });

  it('gives up on a root it cannot cut line by line', () => {
    const flow = rootText.replace(/^paths:\n(?: {2}.*\n)+/m, 'paths: { /widgets: { $ref: paths/widgets.yaml }, "/widgets/{widgetId}": { $ref: "paths/widgets_{widgetId}.yaml" } }\n');
    const flowSources = { pathEntries: () => [{ key: '/widgets', first: 1, last: 1 }, { key: '/widgets/{widgetId}', first: 1, last: 1 }] };
    expect(focusedRoot(flow, flowSources.pathEntries(), ['/widgets'])).toBeNull();
  });
});
