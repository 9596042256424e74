// The structure of the shipped code (every workspace's src, lib, bin and scripts, the spec's lib,
// scripts and style functions, the root's scripts): no import circle, and no function over 120
// lines (CONTRIBUTING.md, "Architecture"). What is over the limit today is listed below with its
// length; each entry goes when its function is cut into named steps, and the test says so once it
// is. A new circle or long function, or a listed one grown longer, fails.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { circles, functionLengths, importGraph, sourceFiles } from '../scripts/structure.mjs';

type Length = { file: string; name: string; line: number; lines: number };

/** The most lines a function may span, from its first line to its last. */
const LIMIT = 120;

/** Functions over the limit today (`file › name`: lines), to be cut into named steps (issue 38). */
const LONG_FUNCTIONS: Record<string, number> = {
  'packages/dev/src/loop.mjs › startDevLoop': 247,
  'packages/client/src/client.ts › createClient': 172,
};

/** Import circles today, each as its files (any order), to be undone (issue 38: areas meet through services). */
const CIRCLES: string[][] = [
  ['packages/server/src/core/area.ts', 'packages/server/src/core/services.ts'],
];

const key = (f: Length) => `${f.file} › ${f.name}`;
const sameFiles = (a: string[], b: string[]) => a.length === b.length && a.every((file) => b.includes(file));

/** The circles of a graph beyond the allowed ones, and the allowed ones no longer there. */
function circleFindings(found: string[][], allowed: string[][]): { added: string[]; gone: string[] } {
  const members = (circle: string[]) => [...new Set(circle)];
  return {
    added: found.filter((c) => !allowed.some((a) => sameFiles(members(c), a))).map((c) => c.join(' → ')),
    gone: allowed.filter((a) => !found.some((c) => sameFiles(members(c), a))).map((a) => a.join(' ↔ ')),
  };
}

/** The functions over the limit beyond the allowed ones (or longer than allowed), and the allowed ones now within it. */
function lengthFindings(lengths: Length[], allowed: Record<string, number>): { added: string[]; gone: string[] } {
  const over = lengths.filter((f) => f.lines > LIMIT);
  return {
    added: over.filter((f) => !(key(f) in allowed) || f.lines > allowed[key(f)]!).map((f) => `${key(f)} (line ${f.line}): ${f.lines} lines${key(f) in allowed ? `, more than the ${allowed[key(f)]} allowed` : ''}`),
    gone: Object.keys(allowed).filter((k) => !over.some((f) => key(f) === k)),
  };
}

describe('the shipped code', () => {
  const files: string[] = sourceFiles();
  const graph = importGraph(files);

  it('reads every workspace', () => {
    for (const folder of ['spec/lib/', 'packages/contract/src/', 'packages/server/src/', 'packages/mock/src/', 'packages/client/src/', 'scripts/']) {
      expect(files.some((f) => f.startsWith(folder)), folder).toBe(true);
    }
    // The workspaces' own package names are followed to their sources.
    expect([...graph.get('packages/contract/src/model/schema-shape.ts')!]).toContain('spec/lib/schema-walk.mjs');
  });

  it('has no import circle', () => {
    const { added, gone } = circleFindings(circles(graph), CIRCLES);
    expect(added, 'import circles: a module that a module it imports imports back. Move what both need into a module of its own').toEqual([]);
    expect(gone, 'circles listed in CIRCLES (packages/release/test/structure.test.ts) that are gone: remove them from the list').toEqual([]);
  });

  it(`has no function over ${LIMIT} lines`, () => {
    const { added, gone } = lengthFindings(functionLengths(files), LONG_FUNCTIONS);
    expect(added, `functions over ${LIMIT} lines: cut each into named steps`).toEqual([]);
    expect(gone, `functions listed in LONG_FUNCTIONS (packages/release/test/structure.test.ts) now within ${LIMIT} lines: remove them from the list`).toEqual([]);
  });
});

describe('the structure checks themselves', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'structure-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => { mkdirSync(path.dirname(path.join(root, file)), { recursive: true }); writeFileSync(path.join(root, file), text); };

  it('find a planted circle, through a type-only import and a re-export too', () => {
    write('packages/a/src/outcome.ts', "import type { Check } from './checks.js';\nexport const pass = (c: Check) => c;\n");
    write('packages/a/src/checks.ts', "export { pass } from './outcome.js';\nexport interface Check { name: string }\n");
    write('packages/a/src/alone.mjs', "import { pass } from './checks.js';\nexport default pass;\n");
    const found = circles(importGraph(['packages/a/src/outcome.ts', 'packages/a/src/checks.ts', 'packages/a/src/alone.mjs'], { root }));
    expect(found).toEqual([['packages/a/src/checks.ts', 'packages/a/src/outcome.ts', 'packages/a/src/checks.ts']]);
    expect(circleFindings(found, []).added).toEqual(['packages/a/src/checks.ts → packages/a/src/outcome.ts → packages/a/src/checks.ts']);
    expect(circleFindings([], CIRCLES).gone).toHaveLength(CIRCLES.length);
  });

  it('measure a function from its first line to its last, and flag one over the limit', () => {
    const body = Array.from({ length: LIMIT - 1 }, (_, i) => `  step(${i});`).join('\n');
    write('packages/a/src/long.ts', `export function long() {\n${body}\n  step(-1);\n}\nconst short = () => 1;\n`);
    const lengths: Length[] = functionLengths(['packages/a/src/long.ts'], { root });
    expect(lengths.map((f) => [f.name, f.lines])).toEqual([['long', LIMIT + 2], ['short', 1]]);
    expect(lengthFindings(lengths, {}).added).toEqual([`packages/a/src/long.ts › long (line 1): ${LIMIT + 2} lines`]);
    expect(lengthFindings(lengths, { 'packages/a/src/long.ts › long': LIMIT + 2 }).added).toEqual([]);
    expect(lengthFindings(lengths, { 'packages/a/src/long.ts › long': LIMIT + 1 }).added[0]).toMatch(/more than the 121 allowed/);
    expect(lengthFindings([], { 'packages/a/src/long.ts › long': 200 }).gone).toEqual(['packages/a/src/long.ts › long']);
  });
});
