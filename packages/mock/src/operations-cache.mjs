// Prism's operations of a mock document, made once per supervising process. Reading a document
// into operations (Prism dereferences it and turns each path item into its own model) is about
// half a second of a worker's start; the operations are plain data, so the first worker to make
// them sends them to its supervisor as JSON (a few milliseconds to read back), and the next worker
// started for the same text (a restart, the standby, another startMock in the process) is handed
// them instead. A worker uses them only for the very text it read; a document with references to
// other files is always read anew.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** How many documents' operations the supervisor keeps (a few MB each). */
const KEPT = 4;
/** key → the operations as JSON, the most recently made last. */
const made = new Map();
let handed = 0;

/** What names a document's text. @param {string} text */
export function documentKey(text) {
  return createHash('sha256').update(text).digest('hex');
}

/** Whether a document's operations depend on its text alone (no $ref to another file). @param {string} text */
export function selfContained(text) {
  return !/"\$ref"\s*:\s*"(?!#)/.test(text);
}

/** Supervisor: keeps the operations a worker made. @param {string} key @param {string} json */
export function remember(key, json) {
  made.delete(key);
  made.set(key, json);
  while (made.size > KEPT) made.delete(made.keys().next().value);
}

/**
 * Supervisor: the operations made for the document as it is on disk now, to hand to a new worker;
 * null when none were made for this text (or it cannot be read: the worker will say why).
 * @param {string} document @returns {{ key: string, json: string } | null}
 */
export function operationsFor(document) {
  let key;
  try {
    key = documentKey(readFileSync(document, 'utf8'));
  } catch {
    return null;
  }
  const json = made.get(key);
  return json === undefined ? null : { key, json };
}

/** Supervisor: a worker said it served the operations it was handed. */
export function countHanded() {
  handed += 1;
}

/** How many workers of this process were started on operations handed to them (for the tests). */
export function handedCount() {
  return handed;
}
