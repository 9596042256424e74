// Negative variants of a request body: copies of a valid example that each break one rule of the
// body's schema (a required field left out, a wrong type, a value out of range, an unknown enum
// value, a bad pattern or format, an undeclared field, a broken conditional rule). Each variant
// records the field(s) it breaks, so an error body can be checked for naming one of them, and is
// kept only when the schema itself rejects it (the request view of schema-views decides).
//
// The steps: what the schemas at a place of the body say about its value (`shapeOf`,
// schema-shape.ts), the variants of one value from its constraints (`leafVariants`, here), the
// variants that break a conditional rule (conditional-variants.ts), and the walk of a valid
// example that collects them (`deriveVariants`, here).
import { conditionalVariants, otherThan } from './conditional-variants.js';
import { schemasOf, type Schemas, shapeOf } from './schema-shape.js';
import { jsonType, wrongTypeFor } from './values.js';

/** A negative variant of a request body: one broken rule, the fields it breaks and the value. */
export interface Variant { rule: string; fields: string[]; value: any; description: string }

export const RULES = ['required', 'type', 'range', 'enum', 'pattern', 'format', 'unknown field', 'conditional'];
const FORMAT_BREAKERS: Record<string, string> = { email: 'not-an-email', uri: 'not a uri', ipv4: '999.1.1', ipv6: 'not-an-ipv6', hostname: '-not-a-host-', uuid: 'not-a-uuid', date: '2018-13-45', 'date-time': 'yesterday' };
const UNKNOWN_FIELD = 'unexpected_field';
const isObject = (v: any) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The dotted form of a field path (`devices.sda.disk_id`, `tags.0`), as ErrorDetail.field names it. */
export const dotted = (path: any) => path.join('.');

function setAt(root: any, path: any, value: any) {
  if (!path.length) return value;
  const copy = structuredClone(root);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]] = value;
  return copy;
}

function deleteAt(root: any, path: any) {
  const copy = structuredClone(root);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  delete node[path[path.length - 1]];
  return copy;
}

/** One variant of a value: the rule it breaks, the wrong value, and how. */
type Leaf = [rule: string, wrong: any, description: string];

function* typeAndEnumVariants(c: any, value: any): Generator<Leaf> {
  const wrong = wrongTypeFor(value, c);
  if (wrong !== undefined && value !== null) yield ['type', wrong, `${jsonType(wrong)} instead of ${[].concat(c.type ?? jsonType(value)).join(' or ')}`];
  if (Array.isArray(c.enum)) {
    const other = c.enum.every((e: any) => typeof e === 'number') ? Math.max(...c.enum) + 1 : 'not-a-listed-value';
    yield ['enum', other, `${JSON.stringify(other)}, not one of its values`];
  } else if (c.const !== undefined && typeof c.const !== 'object') {
    const other = otherThan(c.const);
    yield ['enum', other, `${JSON.stringify(other)} instead of the constant ${JSON.stringify(c.const)}`];
  }
}

function* numberVariants(c: any, value: number): Generator<Leaf> {
  const step = Number.isInteger(value) ? 1 : 0.5;
  if (typeof c.minimum === 'number') yield ['range', c.minimum - step, `${c.minimum - step}, below the minimum ${c.minimum}`];
  if (typeof c.exclusiveMinimum === 'number') yield ['range', c.exclusiveMinimum, `${c.exclusiveMinimum}, not above the exclusive minimum`];
  if (typeof c.maximum === 'number') yield ['range', c.maximum + step, `${c.maximum + step}, above the maximum ${c.maximum}`];
  if (typeof c.exclusiveMaximum === 'number') yield ['range', c.exclusiveMaximum, `${c.exclusiveMaximum}, not below the exclusive maximum`];
}

function* stringVariants(c: any): Generator<Leaf> {
  if (c.minLength > 0) yield ['range', 'a'.repeat(c.minLength - 1), `${c.minLength - 1} characters, fewer than ${c.minLength}`];
  if (typeof c.maxLength === 'number' && c.maxLength < 200_000) yield ['range', 'a'.repeat(c.maxLength + 1), `${c.maxLength + 1} characters, more than ${c.maxLength}`];
  if (typeof c.pattern === 'string') {
    const re = new RegExp(c.pattern, 'u');
    const bad = ['!', '', ' x ', '0', 'a'.repeat(Math.max(1, c.minLength ?? 1))].find((text) => !re.test(text));
    if (bad !== undefined) yield ['pattern', bad, `${JSON.stringify(bad)}, not matching ${c.pattern}`];
  }
  if (FORMAT_BREAKERS[c.format]) yield ['format', FORMAT_BREAKERS[c.format], `${JSON.stringify(FORMAT_BREAKERS[c.format])}, not a valid ${c.format}`];
}

function* arrayVariants(c: any, value: any[]): Generator<Leaf> {
  if (c.minItems > 0) yield ['range', value.slice(0, c.minItems - 1), `${c.minItems - 1} items, fewer than ${c.minItems}`];
  if (typeof c.maxItems === 'number' && c.maxItems < 1000 && value.length) yield ['range', Array.from({ length: c.maxItems + 1 }, (_: any, i: any) => value[i % value.length]), `${c.maxItems + 1} items, more than ${c.maxItems}`];
  if (c.uniqueItems && value.length) yield ['range', [value[0], ...value], 'a repeated item (items must be unique)'];
}

// Variants of one field's value, from the constraints of its schema.
function* leafVariants(c: any, value: any): Generator<Leaf> {
  yield* typeAndEnumVariants(c, value);
  if (typeof value === 'number') yield* numberVariants(c, value);
  if (typeof value === 'string') yield* stringVariants(c);
  if (Array.isArray(value)) yield* arrayVariants(c, value);
}

/** One derivation of the variants of a body: the base example, what is found so far, its limits. */
interface Derivation {
  s: Schemas;
  schemaPointer: string;
  base: any;
  jsonBody: boolean;
  maxDepth: number;
  seen: Set<string>;
  out: Variant[];
}

// Keeps a variant the body schema rejects and that no earlier one already is.
function add(d: Derivation, rule: string, path: (string | number)[], value: any, description: string, fields: string[] = [dotted(path)]): void {
  if (!d.jsonBody && rule !== 'required') return;
  const key = JSON.stringify(value);
  if (d.seen.has(key)) return;
  if (d.s.views.validate('request', d.schemaPointer, value).valid) return;
  d.seen.add(key);
  d.out.push({ rule, fields, value, description: `${dotted(path) || '(body)'}: ${description}` });
}

// An object of the example: each required field left out, an undeclared one added, each field
// visited, the enums of optional fields it leaves out broken, its conditional rules broken.
function visitObject(d: Derivation, pointers: string[], value: any, path: any[], candidates: any[], depth: number): void {
  if (Array.isArray(value)) {
    const shape = shapeOf(d.s, pointers, value);
    if (value.length && shape.items.length) visitValue(d, shape.items, value[0], [...path, 0], depth + 1);
    return;
  }
  if (!isObject(value)) return;
  const shape = shapeOf(d.s, pointers, value);
  for (const name of shape.required) {
    if (name in value) add(d, 'required', [...path, name], setAt(d.base, path, deleteAt(value, [name])), 'left out, though required');
  }
  if (shape.closed) add(d, 'unknown field', [...path, UNKNOWN_FIELD], setAt(d.base, path, { ...value, [UNKNOWN_FIELD]: 'x' }), 'a field the schema does not declare');
  for (const [name, child] of Object.entries(value)) {
    if (shape.properties[name]) visitValue(d, shape.properties[name], child, [...path, name], depth + 1);
  }
  // Optional fields the example leaves out still have enums worth breaking.
  for (const [name, at] of Object.entries(shape.properties)) {
    if (name in value) continue;
    const c = shapeOf(d.s, at, undefined).constraints;
    const [variant] = Array.isArray(c.enum) || c.const !== undefined ? [...leafVariants(c, undefined)].filter(([rule]) => rule === 'enum') : [];
    if (variant) add(d, 'enum', [...path, name], setAt(d.base, path, { ...value, [name]: variant[1] }), variant[2]);
  }
  for (const at of shape.conditionals) {
    for (const variant of conditionalVariants(d.s, at, candidates, shape.properties)) {
      add(d, variant.rule, path, setAt(d.base, path, variant.value), variant.description, variant.fields.map((f) => dotted([...path, f])));
    }
  }
}

function visitValue(d: Derivation, pointers: string[], value: any, path: any[], depth: number): void {
  const c = shapeOf(d.s, pointers, value).constraints;
  for (const [rule, wrong, description] of leafVariants(c, value)) add(d, rule, path, setAt(d.base, path, wrong), description);
  if (depth < d.maxDepth && value && typeof value === 'object') visitObject(d, pointers, value, path, [value], depth);
}

/**
 * Negative variants of a body.
 * @param schemaPointer the body schema in the bundle
 * @param examples valid example values of the body (the first is the base)
 * @param options jsonBody false keeps only the variants a form encoding carries for sure: a
 *   required field left out (every value of a form is a string, and Prism does not enforce
 *   additionalProperties on multipart bodies)
 */
function deriveVariants(s: Schemas, schemaPointer: string, examples: any[], { jsonBody = true, maxDepth = 4 }: { jsonBody?: boolean; maxDepth?: number } = {}): Variant[] {
  const valid = examples.filter((e: any) => s.matches(schemaPointer, e));
  if (!valid.length) return [];
  const base = valid[0];
  const d: Derivation = { s, schemaPointer, base, jsonBody, maxDepth, seen: new Set([JSON.stringify(base)]), out: [] };
  visitObject(d, [schemaPointer], base, [], valid, 0);
  return d.out;
}

/**
 * Negative variants of one path or query parameter value: the scalar rules of its schema
 * (type, enum, range, pattern, format), kept when the schema rejects them. Empty strings are
 * left out of paths, where they would address another operation.
 */
function parameterVariants(s: Schemas, schemaPointer: string, value: any, location: string): { rule: string; value: any; description: string }[] {
  const c = shapeOf(s, [schemaPointer], value).constraints;
  const out: { rule: string; value: any; description: string }[] = [];
  for (const [rule, wrong, description] of leafVariants(c, value)) {
    if (wrong !== null && typeof wrong === 'object') continue;
    if (location === 'path' && String(wrong) === '') continue;
    // Every URL value is text: a number instead of a string is no different there.
    if (rule === 'type' && (typeof value === 'string' || typeof wrong === 'number')) continue;
    if (s.matches(schemaPointer, wrong) || out.some((v: any) => v.value === wrong)) continue;
    out.push({ rule, value: wrong, description });
  }
  return out;
}

/** The variants of the bodies and parameters of one bundle (its schema views). */
export function createVariantDeriver(views: any) {
  const s = schemasOf(views);
  return {
    deriveVariants: (schemaPointer: string, examples: any[], options?: { jsonBody?: boolean; maxDepth?: number }) => deriveVariants(s, schemaPointer, examples, options),
    parameterVariants: (schemaPointer: string, value: any, location: string) => parameterVariants(s, schemaPointer, value, location),
  };
}
