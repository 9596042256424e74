// The lint of a change: spec/openapi.yaml with only the path items an edit can affect. Neither
// Redocly nor Spectral lints part of a document, but both lint whatever root they are given, and
// a root that lists fewer path items reaches fewer files and examples: a schema used by two
// operations is linted in a few hundred milliseconds instead of the whole spec's seconds.
//
// The other path items are commented out line by line, so every line of the focused root is at
// the same number as in the file on disk and findings point at the real lines.
import { parse } from 'yaml';

// Rules whose verdict depends on the whole document: with path items left out they would report
// things that are fine (a component only the hidden operations use; a create whose links lead to
// the operations of a hidden path item). The whole-spec lint, when the designer pauses, runs them.
export const WHOLE_DOCUMENT_RULES = new Set(['no-unused-components', 'oas3-unused-component', 'house-create-links']);

/**
 * @param {string} rootText the text of spec/openapi.yaml
 * @param {Array<{ key: string, first: number, last: number }>} entries its path items and their lines
 * @param {string[]} keep the path item keys to lint
 * @returns {string | null} the focused root, or null when it cannot be made (then lint it all)
 */
export function focusedRoot(rootText, entries, keep) {
  const wanted = new Set(keep);
  const lines = rootText.split('\n');
  for (const entry of entries) {
    if (wanted.has(entry.key)) continue;
    for (let line = entry.first; line <= entry.last; line++) lines[line - 1] = `#${lines[line - 1]}`;
  }
  const text = lines.join('\n');
  // A root whose path items are not one per block entry (flow style, anchors) would not survive
  // commenting out; check the result says exactly what was meant.
  try {
    const kept = Object.keys(parse(text)?.paths ?? {});
    if (kept.length !== wanted.size || !kept.every((key) => wanted.has(key))) return null;
  } catch {
    return null;
  }
  return text;
}
