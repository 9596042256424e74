#!/usr/bin/env node
// The shape of the repository's shipped code, read from its sources with the TypeScript parser:
// the import graph (files, arrows, floors, circles) and the length of every function. The
// structure test (test/structure.test.ts) holds the whole repository to no circle and no long
// function; run by hand it prints the figures of the folders named:
//
//   node packages/release/scripts/structure.mjs packages/contract/src
//   node packages/release/scripts/structure.mjs --functions packages/contract/src
//
// Every import counts, `import type` too: a circle of types is still two modules that cannot be
// understood one without the other.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const ROOT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** Where shipped code lives: every workspace's src, lib, bin and scripts, the spec's style functions, the root's scripts. */
export const SHIPPED = /^(spec\/(lib|scripts|style)|packages\/[^/]+\/(src|lib|bin|scripts)|scripts)\/.*\.(ts|mts|cts|tsx|mjs|cjs|js)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/**
 * The tracked source files under `root` whose repository path matches `pattern` (shipped code by
 * default), as repository paths. Untracked files (generated ones, build output) are left out.
 * @param {{ root?: string, pattern?: RegExp, under?: string[] }} [options]
 * @returns {string[]}
 */
export function sourceFiles({ root = ROOT, pattern = SHIPPED, under = [] } = {}) {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', ...under], { cwd: root, encoding: 'utf8' }).split('\n');
  return listed.filter((file) => file && pattern.test(file) && !DECLARATION.test(file) && existsSync(path.join(root, file))).sort();
}

const parsed = new Map();
/** @param {string} root @param {string} file @returns {ts.SourceFile} */
function parse(root, file) {
  const key = path.join(root, file);
  if (!parsed.has(key)) parsed.set(key, ts.createSourceFile(file, readFileSync(key, 'utf8'), ts.ScriptTarget.Latest, true, /\.tsx$/.test(file) ? ts.ScriptKind.TSX : undefined));
  return parsed.get(key);
}

/** The module specifiers a file imports: static imports and re-exports (types too), `import()` and `require()` with a literal. */
export function specifiersOf(source) {
  const out = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])
      && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) out.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) out.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '.cjs', '/index.ts', '/index.mjs', '/index.js'];
const SWAPS = [['.js', '.ts'], ['.js', '.tsx'], ['.mjs', '.mts'], ['.cjs', '.cts']];

/** @param {string} root @param {string} wanted a repository path, maybe without its extension */
function existing(root, wanted) {
  const candidates = [...EXTENSIONS.map((ext) => wanted + ext), ...SWAPS.filter(([from]) => wanted.endsWith(from)).map(([from, to]) => wanted.slice(0, -from.length) + to)];
  return candidates.find((c) => existsSync(path.join(root, c)) && statSync(path.join(root, c)).isFile());
}

/** The workspaces by package name: their folder and `exports`. */
function workspaces(root) {
  const out = new Map();
  for (const folder of ['spec', ...readdir(root, 'packages').map((p) => `packages/${p}`)]) {
    const file = path.join(root, folder, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    out.set(manifest.name, { folder, exports: manifest.exports ?? {}, main: manifest.main });
  }
  return out;
}
function readdir(root, folder) {
  try { return execFileSync('ls', [path.join(root, folder)], { encoding: 'utf8' }).split('\n').filter(Boolean); } catch { return []; }
}

/** A workspace's export target as a source file: `./dist/vitest.js` is `src/vitest.ts`, `./lib/x.mjs` itself. */
function exportedSource(root, workspace, subpath) {
  let target = workspace.exports[subpath] ?? (subpath === '.' ? workspace.main : undefined);
  while (target && typeof target === 'object') target = target.import ?? target.default ?? target.node;
  if (typeof target !== 'string') return undefined;
  const file = path.posix.join(workspace.folder, target);
  return existing(root, file) && !/\/dist\//.test(file) ? existing(root, file) : existing(root, file.replace(/\/dist\//, '/src/').replace(/\.js$/, ''));
}

/**
 * The import graph of `files` (repository paths): each file's arrows to the files of the set it
 * imports, relative specifiers and the workspaces' own package names (`@cloudapi/spec/schema-walk`)
 * resolved to their sources. Imports of anything else (node:, dependencies) are not arrows.
 * @param {string[]} files
 * @param {{ root?: string }} [options]
 * @returns {Map<string, Set<string>>}
 */
export function importGraph(files, { root = ROOT } = {}) {
  const inSet = new Set(files);
  const packages = workspaces(root);
  const graph = new Map(files.map((file) => [file, new Set()]));
  for (const file of files) {
    for (const specifier of specifiersOf(parse(root, file))) {
      let target;
      if (specifier.startsWith('.')) target = existing(root, path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
      else {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        const workspace = packages.get(name);
        if (workspace) target = exportedSource(root, workspace, `.${specifier.slice(name.length)}` || '.');
      }
      if (target && inSet.has(target) && target !== file) graph.get(file).add(target);
    }
  }
  return graph;
}

/**
 * The circles of a graph: each strongly connected set of more than one file (Tarjan), with one
 * cycle through it as the files in order, the first again at the end.
 * @param {Map<string, Set<string>>} graph
 * @returns {string[][]}
 */
export function circles(graph) {
  let index = 0;
  const stack = [];
  const data = new Map();
  const found = [];
  const connect = (node) => {
    data.set(node, { index, low: index, onStack: true });
    index++;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!data.has(next)) { connect(next); data.get(node).low = Math.min(data.get(node).low, data.get(next).low); }
      else if (data.get(next).onStack) data.get(node).low = Math.min(data.get(node).low, data.get(next).index);
    }
    if (data.get(node).low !== data.get(node).index) return;
    const members = [];
    let member;
    do { member = stack.pop(); data.get(member).onStack = false; members.push(member); } while (member !== node);
    if (members.length > 1) found.push(cycleThrough(graph, new Set(members)));
  };
  for (const node of graph.keys()) if (!data.has(node)) connect(node);
  return found;
}

/** A shortest cycle from the first member (in sorted order) of a strongly connected set back to itself. */
function cycleThrough(graph, members) {
  const [start] = [...members].sort();
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of graph.get(node)) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(next)) { previous.set(next, node); queue.push(next); }
    }
  }
  return [start, start];
}

/**
 * How many floors the graph has: the files on its longest chain of imports (a circle counts as
 * one floor, as its files stand or fall together).
 * @param {Map<string, Set<string>>} graph
 * @returns {number}
 */
export function floors(graph) {
  const group = new Map();
  for (const circle of circles(graph)) for (const file of circle) group.set(file, circle[0]);
  const id = (file) => group.get(file) ?? file;
  const memo = new Map();
  const depth = (node, seen = new Set()) => {
    if (memo.has(node)) return memo.get(node);
    seen.add(node);
    let most = 0;
    for (const [file, targets] of graph) {
      if (id(file) !== node) continue;
      for (const target of targets) if (id(target) !== node && !seen.has(id(target))) most = Math.max(most, depth(id(target), seen));
    }
    seen.delete(node);
    memo.set(node, most + 1);
    return most + 1;
  };
  return Math.max(0, ...[...new Set([...graph.keys()].map(id))].map((node) => depth(node)));
}

/** The arrows of a graph. @param {Map<string, Set<string>>} graph */
export const arrows = (graph) => [...graph.values()].reduce((n, targets) => n + targets.size, 0);

const FUNCTION_KINDS = new Set([ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor, ts.SyntaxKind.SetAccessor]);

/** The name a function is known by: its own, or that of the variable, property or class member holding it. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && (ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isExportAssignment(parent)) return 'default';
  return '(anonymous)';
}

/**
 * Every function of `files` (declarations, expressions, arrows, methods) with its length in lines,
 * from its first line to its last, nested functions included.
 * @param {string[]} files
 * @param {{ root?: string }} [options]
 * @returns {{ file: string, name: string, line: number, lines: number }[]}
 */
export function functionLengths(files, { root = ROOT } = {}) {
  const out = [];
  for (const file of files) {
    const source = parse(root, file);
    const visit = (node) => {
      if (FUNCTION_KINDS.has(node.kind) && (node.body || ts.isArrowFunction(node))) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        out.push({ file, name: nameOf(node), line: first + 1, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** The figures of a set of files: files, arrows, floors, circles, and the longest functions. */
export function figures(files, { root = ROOT, longest = 5 } = {}) {
  const graph = importGraph(files, { root });
  const lengths = functionLengths(files, { root }).sort((a, b) => b.lines - a.lines);
  return { files: files.length, arrows: arrows(graph), floors: floors(graph), circles: circles(graph), longest: lengths.slice(0, longest) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const all = args.includes('--functions');
  const folders = args.filter((a) => !a.startsWith('--'));
  const files = sourceFiles({ under: folders.length ? folders : [] });
  const result = figures(files, { longest: all ? Infinity : 5 });
  console.log(`${result.files} files, ${result.arrows} arrows, ${result.floors} floors, ${result.circles.length} circle(s)`);
  for (const circle of result.circles) console.log(`  circle: ${circle.join(' → ')}`);
  console.log(all ? 'functions, longest first:' : 'longest functions:');
  for (const f of result.longest) console.log(`  ${f.lines} ${f.name} (${f.file}:${f.line})`);
}
