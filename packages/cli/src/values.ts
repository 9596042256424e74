// Command-line text to the JSON a field takes: numbers for numeric fields, `null` for a nullable
// field given the word null, true/false for booleans. Text that does not fit is sent on as text,
// so the schema check names the field and the rule.
import type { FieldType } from './table.js';

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export function convert(text: string, type: FieldType, nullable = false): unknown {
  if (nullable && text === 'null') return null;
  if ((type === 'integer' || type === 'number') && NUMBER.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Sets `value` at `path` in `target`, making the objects on the way. */
export function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

/** The value at a dotted path (`specs.disk`) of an object. */
export function getPath(value: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), value);
}
