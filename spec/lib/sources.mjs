// An index of the spec's source files, for tools that must point a designer at a file and line:
//
// - locate(pointer): where a JSON pointer of the *bundle* comes from in the sources, e.g.
//   `#/components/schemas/Region/properties/site_type` → components/schemas/regions/Region.yaml:14.
//   The bundle's path items are the files spec/openapi.yaml references under `paths`, and its
//   components are the files under components/<kind>/, named after the file (spec/DECISIONS.md,
//   the layout test holds this); below that, the bundle mirrors the file.
// - affectedBy(files): which path items (`/regions/{regionId}`) reference a file, directly or
//   through other files: what an edit of that file can affect.
//
// Files are parsed with their positions once and again only after invalidate() names them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import { parsePointer } from './json-pointer.mjs';

const posix = (p) => p.split(path.sep).join('/');

/** The files a file's `$ref`s name (relative to the spec folder `root`) and the fragment in each. */
function externalRefs(root, file, doc) {
  const refs = [];
  visit(doc, {
    Pair(_, pair) {
      const ref = isScalar(pair.key) && pair.key.value === '$ref' && isScalar(pair.value) ? pair.value.value : null;
      if (typeof ref !== 'string' || ref.startsWith('#') || /^[a-z]+:/i.test(ref)) return;
      const [target, fragment = ''] = ref.split('#');
      refs.push({ file: posix(path.relative(root, path.resolve(root, path.dirname(file), target))), fragment });
    },
  });
  return refs;
}

/** Component files by `kind/Name`: each is named after its file, wherever it sits under components/<kind>/. */
function componentFilesIn(root) {
  const components = new Map();
  let entries = [];
  try {
    entries = readdirSync(path.join(root, 'components'), { recursive: true });
  } catch { /* no components folder */ }
  for (const entry of entries.map(posix)) {
    const match = /^([^/]+)\/(?:.+\/)?([^/]+)\.ya?ml$/.exec(entry);
    if (match) components.set(`${match[1]}/${match[2]}`, `components/${entry}`);
  }
  return components;
}

/** 1-based line and column of a node (or the key that holds it) in a parsed file. */
function position(entry, node) {
  const offset = node?.range?.[0] ?? 0;
  const { line, col } = entry.lines.linePos(offset);
  return { line, column: col };
}

/** The child of a YAML map or sequence that a token names, and the node to point at for it; null when none. */
function childOf(node, part) {
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === part);
    return pair ? { next: pair.value, at: pair.key } : null;
  }
  if (isSeq(node) && /^\d+$/.test(part) && node.items[Number(part)] !== undefined) {
    const next = node.items[Number(part)];
    return { next, at: next };
  }
  return null;
}

/** The spec's source files, parsed with their positions on first use and again after `invalidate`. */
export class SourceIndex {
  /** @param {string} specDir */
  constructor(specDir) {
    this.root = path.resolve(specDir);
    /** @type {Map<string, any>} relative file → { doc, lines, refs } or { error } */
    this.parsed = new Map();
    /** @type {Map<string, string> | null} "kind/Name" → relative file */
    this.components = null;
  }

  /** @param {string} file relative to the spec folder */
  load(file) {
    if (!this.parsed.has(file)) {
      try {
        const lines = new LineCounter();
        const doc = parseDocument(readFileSync(path.join(this.root, file), 'utf8'), { lineCounter: lines });
        this.parsed.set(file, { doc, lines, refs: doc.errors.length ? [] : externalRefs(this.root, file, doc) });
      } catch (error) {
        this.parsed.set(file, { error });
      }
    }
    return this.parsed.get(file);
  }

  componentFiles() {
    this.components ??= componentFilesIn(this.root);
    return this.components;
  }

  /** Path item key → its file, from spec/openapi.yaml's `paths`. @returns {Map<string, string>} */
  pathItemFiles() {
    const items = new Map();
    const paths = this.load('openapi.yaml').doc?.get('paths', true);
    if (!isMap(paths)) return items;
    for (const pair of paths.items) {
      const ref = isMap(pair.value) ? pair.value.get('$ref') : undefined;
      if (typeof ref === 'string' && !ref.startsWith('#')) items.set(String(pair.key.value), posix(path.normalize(ref.split('#')[0])));
    }
    return items;
  }

  /**
   * Walks `parts` down the YAML of `file` from `fragment`, following references to other files.
   * Stops at the deepest node that exists: a pointer to something removed locates its parent.
   * @param {string} file @param {string} fragment @param {Array<string | number>} parts
   * @returns {{ file: string, line: number, column: number }}
   */
  walk(file, fragment, parts, depth = 0) {
    const entry = this.load(file);
    if (!entry.doc || entry.doc.errors.length) return { file, line: 1, column: 1 };
    let node = entry.doc.contents;
    let at = node;
    const all = [...parsePointer(`#${fragment}`), ...parts.map(String)];
    for (const [i, part] of all.entries()) {
      const ref = isMap(node) ? node.get('$ref') : undefined;
      if (typeof ref === 'string' && !ref.startsWith('#') && depth < 16) {
        const [target, frag = ''] = ref.split('#');
        return this.walk(posix(path.relative(this.root, path.resolve(this.root, path.dirname(file), target))), frag, all.slice(i), depth + 1);
      }
      const child = childOf(node, part);
      if (!child) break;
      ({ next: node, at } = child);
    }
    return { file, ...position(entry, at) };
  }

  /**
   * Where a pointer of the bundle comes from: { file (relative, with /), line, column }.
   * @param {string} pointer
   */
  locate(pointer) {
    const parts = parsePointer(pointer);
    if (parts[0] === 'paths' && parts.length >= 2) {
      const file = this.pathItemFiles().get(parts[1]);
      if (file) return this.walk(file, '', parts.slice(2));
    }
    if (parts[0] === 'components' && parts.length >= 3) {
      const inRoot = this.load('openapi.yaml').doc?.getIn(['components', parts[1], parts[2]], true);
      const file = this.componentFiles().get(`${parts[1]}/${parts[2]}`);
      if (!inRoot && file) return this.walk(file, '', parts.slice(3));
    }
    return this.walk('openapi.yaml', '', parts);
  }

  /** Every file openapi.yaml reaches → the files that reference it. @returns {Map<string, Set<string>>} */
  referrers() {
    const referrers = new Map();
    const queue = ['openapi.yaml'];
    const seen = new Set(queue);
    while (queue.length) {
      const file = queue.shift();
      for (const ref of this.load(file).refs ?? []) {
        if (!referrers.has(ref.file)) referrers.set(ref.file, new Set());
        referrers.get(ref.file).add(file);
        if (!seen.has(ref.file)) { seen.add(ref.file); queue.push(ref.file); }
      }
    }
    return referrers;
  }

  /**
   * What an edit of `files` can affect: the path item keys whose files reference one of them,
   * directly or not, and whether spec/openapi.yaml reaches one at all (through a path item or
   * its own components).
   * @param {string[]} files
   * @returns {{ paths: string[], fromRoot: boolean }}
   */
  affectedBy(files) {
    // Backwards from the edited files along the $refs.
    const referrers = this.referrers();
    const affected = new Set(files.map(posix));
    const back = [...affected];
    while (back.length) {
      for (const referrer of referrers.get(back.shift()) ?? []) {
        if (!affected.has(referrer)) { affected.add(referrer); back.push(referrer); }
      }
    }
    const paths = [...this.pathItemFiles()].filter(([, file]) => affected.has(file)).map(([key]) => key);
    return { paths, fromRoot: affected.has('openapi.yaml') };
  }

  /** All path item keys of spec/openapi.yaml with the lines their entry spans there. @returns {Array<{ key: string, first: number, last: number }>} */
  pathEntries() {
    const entry = this.load('openapi.yaml');
    const paths = entry.doc?.get('paths', true);
    if (!isMap(paths)) return [];
    return paths.items.map((pair) => ({
      key: String(pair.key.value),
      first: entry.lines.linePos(pair.key.range[0]).line,
      last: entry.lines.linePos(Math.max(pair.key.range[0], (pair.value?.range?.[2] ?? pair.key.range[2]) - 1)).line,
    }));
  }

  /** Forgets the parses of changed, added or removed files. @param {string[]} files */
  invalidate(files) {
    for (const file of files) {
      this.parsed.delete(posix(file));
      if (posix(file).startsWith('components/')) this.components = null;
    }
  }
}

/** @param {string} specDir @returns {SourceIndex} */
export function createSourceIndex(specDir) {
  return new SourceIndex(specDir);
}
