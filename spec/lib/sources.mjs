// An index of the spec's source files, for tools that must point a designer at a file and line:
//
// - locate(pointer): where a JSON pointer of the *bundle* comes from in the sources, e.g.
//   `#/components/schemas/Region/properties/site_type` → components/schemas/regions/Region.yaml:14.
//   The bundle's path items are the files spec/openapi.yaml references under `paths`, and its
//   components are the files under components/<kind>/, named after the file (spec/DECISIONS.md,
//   the layout test holds this); below that, the bundle mirrors the file.
// - affectedBy(files): which path items (`/regions/{regionId}`) reference a file, directly or
//   through other files: what an edit of that file can affect; reachedFrom(keys) the other way:
//   the files those path items reference.
//
// Files are parsed with their positions once and again only after invalidate() names them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';

const posix = (p) => p.split(path.sep).join('/');
const decode = (part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
export const pointerParts = (pointer) => String(pointer).replace(/^#\/?/, '').split('/').filter((p) => p !== '').map(decode);

/** @param {string} specDir */
export function createSourceIndex(specDir) {
  const root = path.resolve(specDir);
  const parsed = new Map(); // relative file → { doc, lines, refs } or { error }
  let components = null; // "kind/Name" → relative file

  function load(file) {
    if (!parsed.has(file)) {
      try {
        const lines = new LineCounter();
        const doc = parseDocument(readFileSync(path.join(root, file), 'utf8'), { lineCounter: lines });
        parsed.set(file, { doc, lines, refs: doc.errors.length ? [] : externalRefs(file, doc) });
      } catch (error) {
        parsed.set(file, { error });
      }
    }
    return parsed.get(file);
  }

  /** The files a file's `$ref`s name (relative to the spec folder) and the fragment in each. */
  function externalRefs(file, doc) {
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

  function componentFiles() {
    if (!components) {
      components = new Map();
      let entries = [];
      try {
        entries = readdirSync(path.join(root, 'components'), { recursive: true });
      } catch { /* no components folder */ }
      for (const entry of entries.map(posix)) {
        const match = /^([^/]+)\/(?:.+\/)?([^/]+)\.ya?ml$/.exec(entry);
        if (match) components.set(`${match[1]}/${match[2]}`, `components/${entry}`);
      }
    }
    return components;
  }

  /** Path item key → its file, from spec/openapi.yaml's `paths`. */
  function pathItemFiles() {
    const rootFile = load('openapi.yaml');
    const items = new Map();
    const paths = rootFile.doc?.get('paths', true);
    if (!isMap(paths)) return items;
    for (const pair of paths.items) {
      const ref = isMap(pair.value) ? pair.value.get('$ref') : undefined;
      if (typeof ref === 'string' && !ref.startsWith('#')) items.set(String(pair.key.value), posix(path.normalize(ref.split('#')[0])));
    }
    return items;
  }

  /** 1-based line and column of a node (or the key that holds it) in a file. */
  function position(entry, node) {
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = entry.lines.linePos(offset);
    return { line, column: col };
  }

  /**
   * Walks `parts` down the YAML of `file` from `fragment`, following references to other files.
   * Stops at the deepest node that exists: a pointer to something removed locates its parent.
   */
  function walk(file, fragment, parts, depth = 0) {
    const entry = load(file);
    if (!entry.doc || entry.doc.errors.length) return { file, line: 1, column: 1 };
    let node = entry.doc.contents;
    let at = node;
    const all = [...pointerParts(fragment), ...parts.map(String)];
    for (const [i, part] of all.entries()) {
      const ref = isMap(node) ? node.get('$ref') : undefined;
      if (typeof ref === 'string' && !ref.startsWith('#') && depth < 16) {
        const [target, frag = ''] = ref.split('#');
        return walk(posix(path.relative(root, path.resolve(root, path.dirname(file), target))), frag, all.slice(i), depth + 1);
      }
      let next;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === part);
        if (!pair) break;
        next = pair.value;
        at = pair.key;
      } else if (isSeq(node) && /^\d+$/.test(part) && node.items[Number(part)] !== undefined) {
        next = node.items[Number(part)];
        at = next;
      } else break;
      node = next;
    }
    return { file, ...position(entry, at) };
  }

  return {
    /** Where a pointer of the bundle comes from: { file (relative, with /), line, column }. */
    locate(pointer) {
      const parts = pointerParts(pointer);
      if (parts[0] === 'paths' && parts.length >= 2) {
        const file = pathItemFiles().get(parts[1]);
        if (file) return walk(file, '', parts.slice(2));
      }
      if (parts[0] === 'components' && parts.length >= 3) {
        const inRoot = load('openapi.yaml').doc?.getIn(['components', parts[1], parts[2]], true);
        const file = componentFiles().get(`${parts[1]}/${parts[2]}`);
        if (!inRoot && file) return walk(file, '', parts.slice(3));
      }
      return walk('openapi.yaml', '', parts);
    },

    /**
     * What an edit of `files` can affect: the path item keys whose files reference one of them,
     * directly or not, and whether spec/openapi.yaml reaches one at all (through a path item or
     * its own components).
     */
    affectedBy(files) {
      // Every file openapi.yaml reaches, then backwards from the edited files along the $refs.
      const referrers = new Map(); // file → files that reference it
      const queue = ['openapi.yaml'];
      const seen = new Set(queue);
      while (queue.length) {
        const file = queue.shift();
        for (const ref of load(file).refs ?? []) {
          if (!referrers.has(ref.file)) referrers.set(ref.file, new Set());
          referrers.get(ref.file).add(file);
          if (!seen.has(ref.file)) { seen.add(ref.file); queue.push(ref.file); }
        }
      }
      const affected = new Set(files.map(posix));
      const back = [...affected];
      while (back.length) {
        for (const referrer of referrers.get(back.shift()) ?? []) {
          if (!affected.has(referrer)) { affected.add(referrer); back.push(referrer); }
        }
      }
      const paths = [...pathItemFiles()].filter(([, file]) => affected.has(file)).map(([key]) => key);
      return { paths, fromRoot: affected.has('openapi.yaml') };
    },

    /**
     * The files the path items `keys` reach, directly or through other files, and
     * spec/openapi.yaml: what a lint of the root with only those path items looks at.
     */
    reachedFrom(keys) {
      const items = pathItemFiles();
      const reached = new Set(['openapi.yaml']);
      const queue = keys.map((key) => items.get(key)).filter(Boolean);
      for (const file of queue) reached.add(file);
      while (queue.length) {
        for (const ref of load(queue.shift()).refs ?? []) {
          if (!reached.has(ref.file)) { reached.add(ref.file); queue.push(ref.file); }
        }
      }
      return reached;
    },

    /** All path item keys of spec/openapi.yaml with the lines their entry spans there. */
    pathEntries() {
      const entry = load('openapi.yaml');
      const paths = entry.doc?.get('paths', true);
      if (!isMap(paths)) return [];
      return paths.items.map((pair) => ({
        key: String(pair.key.value),
        first: entry.lines.linePos(pair.key.range[0]).line,
        last: entry.lines.linePos(Math.max(pair.key.range[0], (pair.value?.range?.[2] ?? pair.key.range[2]) - 1)).line,
      }));
    },

    /** Forgets the parses of changed, added or removed files. */
    invalidate(files) {
      for (const file of files) {
        parsed.delete(posix(file));
        if (posix(file).startsWith('components/')) components = null;
      }
    },
  };
}
