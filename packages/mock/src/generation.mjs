// Generated data that validates. Prism's generator (json-schema-faker) follows each field's own
// keywords but not the rules that relate fields (`if`/`then`/`else`, `not`, `oneOf`, `contains` with
// `maxContains`), so about one answer in two breaks such a rule where a schema has one. Rather than
// teach the generator every keyword, `generateValid` checks each answer against its schema and
// regenerates only the parts that break it (a list item, an array, the whole object), a bounded
// number of times. Parts are independent, so a list of many items converges as fast as one item.
import { parsePointer } from '@cloudapi/spec/json-pointer';
import { memberSchemas } from '@cloudapi/spec/schema-walk';

/**
 * The schema of `value[key]` inside `schema`, looking through `properties`, `items`,
 * `prefixItems` and `allOf`; several declarations are combined with `allOf`. `undefined` when the
 * part is declared elsewhere (a conditional branch, `oneOf`): the caller then regenerates the
 * enclosing value instead.
 */
export function childSchema(schema, key) {
  // A boolean declaration (`items: false`) is no schema to generate from.
  const found = memberSchemas(schema, key).filter((member) => typeof member === 'object');
  if (found.length === 0) return undefined;
  return found.length === 1 ? found[0] : { allOf: found };
}

function schemaAt(schema, segments) {
  let current = schema;
  for (const key of segments) {
    current = childSchema(current, key);
    if (!current) return undefined;
  }
  return current;
}

function setAt(value, segments, part) {
  if (segments.length === 0) return part;
  let parent = value;
  for (const key of segments.slice(0, -1)) parent = parent[key];
  parent[segments.at(-1)] = part;
  return value;
}

/** The shallowest of some paths (as segment lists): none inside another. */
function outermost(paths) {
  const sorted = [...new Map(paths.map((p) => [p.join('/'), p])).values()].sort((a, b) => a.length - b.length);
  const kept = [];
  for (const path of sorted) {
    if (!kept.some((k) => k.every((segment, i) => path[i] === segment))) kept.push(path);
  }
  return kept;
}

/**
 * Generates a value for `schema` that `check` accepts.
 *
 * @param {object} options
 * @param {(schema: object, seed?: string) => unknown} options.generate makes one value for a schema
 *   (throws when it cannot).
 * @param {object} options.schema the whole schema.
 * @param {(value: unknown) => {valid: boolean, errors: {instancePath: string}[]}} options.check
 * @param {string} [options.seed] when given, the repairs are seeded from it, so the answer is repeatable.
 * @param {number} [options.rounds] how many rounds of repair before giving up (the last value is returned).
 * @param {number} [options.triesPerPart] regenerations of one part before its parent is regenerated instead.
 * @returns {{value: unknown, valid: boolean, repairs: number}}
 */
export function generateValid({ generate, schema, check, seed, rounds = 60, triesPerPart = 8 }) {
  let value = generate(schema, seed);
  const tries = new Map();
  let repairs = 0;
  for (let round = 1; round <= rounds; round++) {
    const result = check(value);
    if (result.valid) return { value, valid: true, repairs };
    // Widen each failing part to one with a schema of its own, and to its parent when it keeps
    // failing; then regenerate the outermost of them, so that no part replaces another's parent.
    const parts = outermost(result.errors.map((e) => parsePointer(e.instancePath))).map((failing) => {
      let segments = failing;
      while (segments.length && (!schemaAt(schema, segments) || (tries.get(segments.join('/')) ?? 0) >= triesPerPart)) segments = segments.slice(0, -1);
      return segments;
    });
    for (const segments of outermost(parts)) {
      const key = segments.join('/');
      tries.set(key, (tries.get(key) ?? 0) + 1);
      repairs++;
      value = setAt(value, segments, generate(schemaAt(schema, segments) ?? schema, seed === undefined ? undefined : `${seed}/${key}/${round}`));
    }
  }
  const result = check(value);
  return { value, valid: result.valid, repairs };
}
