// What the open docs pages are told of the spec's lint findings (src/problems.mjs): the lint of a
// change replaces what it can see, the whole-spec lint replaces everything and keeps what only it
// can see until it runs again.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProblemBoard } from '../src/problems.mjs';

const cwd = '/repo';
const finding = (file, line, rule, extra = {}) => ({ tool: 'redocly', rule, file: path.join(cwd, file), line, column: 3, severity: 'error', message: `${rule} at ${file}:${line}`, ...extra });
const where = (state) => state.findings.map((f) => `${f.file}:${f.line} ${f.rule}${f.whole ? ' (whole)' : ''}`);

describe('the problem board', () => {
  it('lets the lint of a change replace the findings of the files it saw, and only those', () => {
    const told = [];
    const board = createProblemBoard({ cwd, onChange: (state) => told.push(state) });
    board.fromChange([finding('spec/a.yaml', 4, 'rule-x'), finding('spec/b.yaml', 9, 'rule-y')], null);
    expect(where(told.at(-1))).toEqual(['spec/a.yaml:4 redocly/rule-x', 'spec/b.yaml:9 redocly/rule-y']);
    expect(told.at(-1).findings[0]).toEqual({ file: 'spec/a.yaml', line: 4, column: 3, severity: 'error', rule: 'redocly/rule-x', message: 'rule-x at spec/a.yaml:4' });
    // a.yaml fixed: its finding goes, b.yaml's stays (the lint did not look at it).
    board.fromChange([], new Set(['spec/a.yaml']));
    expect(where(told.at(-1))).toEqual(['spec/b.yaml:9 redocly/rule-y']);
    // The same state again is not told again.
    board.fromChange([], new Set(['spec/a.yaml']));
    expect(told).toHaveLength(2);
  });

  it('keeps what only the whole-spec lint sees (whole-document rules, the bundle) until it runs again', () => {
    const board = createProblemBoard({ cwd });
    const inBundle = finding('spec/dist/openapi.yaml', 900, 'bundle-rule', { source: { file: path.join(cwd, 'spec/c.yaml'), line: 2, column: 1 } });
    board.fromWhole([finding('spec/a.yaml', 4, 'rule-x'), finding('spec/u.yaml', 1, 'no-unused-components'), inBundle], (f) => f === inBundle);
    expect(where(board.state())).toEqual(['spec/a.yaml:4 redocly/rule-x', 'spec/u.yaml:1 redocly/no-unused-components (whole)', 'spec/c.yaml:2 redocly/bundle-rule (whole)']);
    board.fromChange([], new Set(['spec/a.yaml', 'spec/u.yaml', 'spec/c.yaml']));
    expect(where(board.state())).toEqual(['spec/u.yaml:1 redocly/no-unused-components (whole)', 'spec/c.yaml:2 redocly/bundle-rule (whole)']);
    board.fromWhole([]);
    expect(board.state().findings).toEqual([]);
  });

  it('says why the spec does not bundle until it bundles again', () => {
    const board = createProblemBoard({ cwd });
    board.bundleFailed('spec/a.yaml: cannot resolve $ref ./missing.yaml');
    expect(board.state().bundle).toBe('spec/a.yaml: cannot resolve $ref ./missing.yaml');
    board.bundled();
    expect(board.state().bundle).toBeNull();
  });
});
