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

// How many tokens each keyword of a schema path takes (its own and a name or index after it), and
// which of them step into a member of the value rather than staying on the value itself.
const MEMBER_KEYWORDS = { properties: 2, patternProperties: 2, prefixItems: 2, items: 1, additionalProperties: 1 };
const IN_PLACE_KEYWORDS = { then: 1, else: 1, allOf: 2, dependentSchemas: 2, anyOf: 2, oneOf: 2, not: 1, if: 1 };
// Through these the branch's demand on a field is one more schema the field must meet; through
// anyOf, oneOf, not or if it is a choice or a refusal, left to the regeneration of the whole.
const DEMANDING = new Set(['then', 'else', 'allOf', 'dependentSchemas']);

/**
 * The schemas in `schema` that the part at `segments` failed against from a branch of its
 * object (`else: {properties: {tag: {type: 'null'}}}`): Ajv's error names the keyword's place.
 * The part's own declaration does not carry them, so regenerating from it alone may never meet
 * them (a field that must be null in one branch, a string in another).
 */
function branchDemands(schema, errors, segments) {
  const demands = [];
  for (const error of errors) {
    if (parsePointer(error.instancePath).join('/') !== segments.join('/') || !error.schemaPath?.startsWith('#/')) continue;
    const at = parsePointer(error.schemaPath).slice(0, -1); // the schema that holds the failing keyword
    if (at.at(-2) !== 'properties' || at.at(-1) !== String(segments.at(-1))) continue;
    // The in-place keywords after the last step into a member: the branches of the field's object.
    let members = 0;
    let branch = [];
    for (let i = 0; i < at.length - 2;) {
      const token = at[i];
      if (MEMBER_KEYWORDS[token]) { members++; branch = []; i += MEMBER_KEYWORDS[token]; } else if (IN_PLACE_KEYWORDS[token]) { branch.push(token); i += IN_PLACE_KEYWORDS[token]; } else { branch = null; break; }
    }
    if (!branch || members !== segments.length - 1 || !branch.length || !branch.every((token) => DEMANDING.has(token))) continue;
    const demand = at.reduce((node, token) => (node && typeof node === 'object' ? node[token] : undefined), schema);
    if (demand && typeof demand === 'object' && !demands.includes(demand)) demands.push(demand);
  }
  return demands;
}

/** A part made to meet its branches' demands too; from its own schema when the generator cannot combine them. */
function withDemands(generate, own, demands, seed) {
  try {
    return generate({ allOf: [own, ...demands] }, seed);
  } catch {
    return generate(own, seed);
  }
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
    // An `if` error ("must match the then schema") only sums up the errors inside the branch: the
    // parts those name are what to regenerate, not the whole object.
    const errors = result.errors.filter((e) => e.keyword !== 'if' || !result.errors.some((other) => other !== e && other.keyword !== 'if' && other.schemaPath?.startsWith(`${e.schemaPath.replace(/\/if$/, '')}/`) && other.instancePath.startsWith(`${e.instancePath}/`)));
    const parts = outermost(errors.map((e) => parsePointer(e.instancePath))).map((failing) => {
      let segments = failing;
      while (segments.length && (!schemaAt(schema, segments) || (tries.get(segments.join('/')) ?? 0) >= triesPerPart)) segments = segments.slice(0, -1);
      return segments;
    });
    for (const segments of outermost(parts)) {
      const key = segments.join('/');
      tries.set(key, (tries.get(key) ?? 0) + 1);
      repairs++;
      const own = schemaAt(schema, segments) ?? schema;
      const demands = segments.length ? branchDemands(schema, errors, segments) : [];
      const partSeed = seed === undefined ? undefined : `${seed}/${key}/${round}`;
      value = setAt(value, segments, demands.length ? withDemands(generate, own, demands, partSeed) : generate(own, partSeed));
    }
  }
  const result = check(value);
  return { value, valid: result.valid, repairs };
}
