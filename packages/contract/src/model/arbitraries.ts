// fast-check arbitraries for request bodies, from their JSON Schema (2020-12, as the bundle writes
// it). Values come from the keywords that shape them (types, enums, consts, ranges, lengths,
// patterns, formats, items, properties, required, allOf/oneOf/anyOf); the rules across fields
// (if/then, not, dependentRequired) are left to the validator: the property drops any value the
// request view refuses, so every request sent as "valid" is valid by the schema. A second source
// keeps the spec's own examples and replaces some of their fields, which meets the cross-field
// rules far more often than values built from nothing.
import fc from 'fast-check';
import { schemaParts, subschemas } from '@cloudapi/spec/schema-walk';
import { typesOf } from './values.js';

type Resolve = (node: any) => any;

// fast-check's webUrl takes seconds to build (its percent-encoding tables); this one, instants.
const webUrl = () => fc.tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { maxLength: 3 }))
  .map(([scheme, host, segments]) => `${scheme}://${host}/${segments.join('/')}`);

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  email: () => fc.emailAddress(),
  uri: webUrl,
  url: webUrl,
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  hostname: () => fc.domain(),
  uuid: () => fc.uuid(),
  password: () => fc.string({ minLength: 12, maxLength: 24, unit: 'grapheme-ascii' }).map((s) => `Aa1!${s}`),
};

const MAX_DEPTH = 6;

// Building a string or URL arbitrary costs far more than drawing from it: each is built once.
const built = new Map<string, fc.Arbitrary<string>>();
const once = (key: string, make: () => fc.Arbitrary<string>) => {
  if (!built.has(key)) built.set(key, make());
  return built.get(key)!;
};

function stringArbitrary(s: any): fc.Arbitrary<string> {
  if (typeof s.format === 'string' && FORMATS[s.format]) return once(`format ${s.format}`, FORMATS[s.format]!);
  return once(JSON.stringify([s.minLength, s.maxLength, s.pattern]), () => buildString(s));
}

function buildString(s: any): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? Math.max(minLength, 24), Math.max(minLength, 64));
  if (typeof s.pattern === 'string') {
    let re: RegExp;
    try { re = new RegExp(s.pattern, 'u'); } catch { return fc.constant('x'); }
    return fc.stringMatching(re).filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity));
  }
  // Short strings find most bugs; strings near the longest allowed find the rest.
  return fc.oneof(fc.string({ minLength, maxLength, unit: 'grapheme-ascii' }), fc.string({ minLength, maxLength, unit: 'grapheme-ascii', size: 'max' }));
}

function numberArbitrary(s: any, integer: boolean): fc.Arbitrary<number> {
  const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : undefined;
  const hi = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : undefined;
  if (integer) return fc.integer({ min: Math.ceil(lo ?? -1_000_000), max: Math.floor(hi ?? 1_000_000) });
  return fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

/** The subschemas of `s` under one keyword, as written. */
const under = (s: any, keyword: string): any[] => [...subschemas(s, [keyword])].map((x) => x.schema);

/** An arbitrary of values for `schema` (a schema object or `$ref`), up to a depth. */
export function schemaArbitrary(schema: any, resolve: Resolve, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s === true || s === undefined || s === null) return fc.constant('x');
  if (s === false || typeof s !== 'object' || depth > MAX_DEPTH) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  if (Array.isArray(s.allOf) && s.allOf.length) {
    // Objects merge: the properties and required names of every part.
    const parts = under(s, 'allOf').map((p: any) => resolve(p)).filter((p: any) => p && typeof p === 'object');
    const merged = { ...s, allOf: undefined, properties: { ...Object.assign({}, ...parts.map((p: any) => p.properties || {})), ...(s.properties || {}) }, required: [...new Set([...(s.required || []), ...parts.flatMap((p: any) => p.required || [])])] };
    if (!merged.type && parts.some((p: any) => typesOf(p).includes('object'))) merged.type = 'object';
    const branchy = parts.find((p: any) => Array.isArray(p.oneOf) || Array.isArray(p.anyOf));
    if (branchy) {
      return fc.oneof(...under(branchy, branchy.oneOf ? 'oneOf' : 'anyOf').map((b: any) => {
        const r = resolve(b) || {};
        return schemaArbitrary({ ...merged, properties: { ...merged.properties, ...(r.properties || {}) }, required: [...merged.required, ...(r.required || [])] }, resolve, depth + 1);
      }));
    }
    return schemaArbitrary(merged, resolve, depth + 1);
  }
  for (const key of ['oneOf', 'anyOf']) {
    if (Array.isArray(s[key]) && s[key].length) {
      const base = { ...s, [key]: undefined };
      return fc.oneof(...under(s, key).map((b: any) => {
        const r = resolve(b) || {};
        const combined = typesOf(r).includes('object') || r.properties
          ? { ...base, ...r, properties: { ...(s.properties || {}), ...(r.properties || {}) }, required: [...(s.required || []), ...(r.required || [])] }
          : r;
        return schemaArbitrary(combined, resolve, depth + 1);
      }));
    }
  }
  const types = typesOf(s);
  const choices = (types.length ? types : ['string']).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null': return fc.constant(null);
      case 'boolean': return fc.boolean();
      case 'integer': return numberArbitrary(s, true);
      case 'number': return numberArbitrary(s, false);
      case 'string': return stringArbitrary(s);
      case 'array': {
        const [itemSchema] = under(s, 'items').filter((x) => typeof x === 'object');
        const items = itemSchema ? schemaArbitrary(itemSchema, resolve, depth + 1) : fc.constant('x');
        const minLength = s.minItems ?? 0;
        const maxLength = Math.min(s.maxItems ?? minLength + 3, minLength + 3);
        return s.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
      }
      case 'object': {
        const properties = [...subschemas(s, ['properties'])].map((x): [string, any] => [String(x.key), x.schema]).filter(([, p]) => { const r = resolve(p); return r !== false && !(r && r.readOnly) && !(p && p.readOnly); });
        const required = new Set<string>(s.required || []);
        const [additional] = under(s, 'additionalProperties').filter((x) => typeof x === 'object');
        if (!properties.length && additional) {
          return fc.dictionary(fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme-ascii' }), schemaArbitrary(additional, resolve, depth + 1), { maxKeys: 2 });
        }
        const model = Object.fromEntries(properties.map(([name, p]) => [name, schemaArbitrary(p, resolve, depth + 1)]));
        return fc.record(model, { requiredKeys: properties.map(([name]) => name).filter((n) => required.has(n)) });
      }
      default: return fc.constant(null);
    }
  });
  return choices.length === 1 ? choices[0]! : fc.oneof(...choices);
}

/**
 * Request bodies for one operation: built from the schema, or one of the spec's examples with some
 * fields replaced by generated values and some optional ones left out.
 */
export function bodyArbitrary(schema: any, examples: unknown[], resolve: Resolve): fc.Arbitrary<unknown> {
  const fromSchema = schemaArbitrary(schema, resolve);
  const s = resolve(schema) || {};
  const objects = examples.filter((e): e is Record<string, unknown> => Boolean(e) && typeof e === 'object' && !Array.isArray(e));
  if (!objects.length) return fromSchema;
  const propertySchemas = new Map<string, any>();
  for (const part of schemaParts(s, { resolve, maxDepth: 4 })) {
    for (const { key, schema: p } of subschemas(part, ['properties'])) if (!propertySchemas.has(String(key))) propertySchemas.set(String(key), p);
  }
  const required = new Set<string>(s.required || []);
  // Built once: building a string arbitrary costs far more than drawing from it.
  const replacements = new Map<string, fc.Arbitrary<unknown>>();
  for (const [name, p] of propertySchemas) replacements.set(name, schemaArbitrary(p, resolve, 1));
  const fromExample = fc.constantFrom(...objects).chain((example) => {
    const fields = Object.entries(example).map(([name, value]) => {
      const keep = fc.constant(value);
      const replace = replacements.get(name) ?? keep;
      const choices = [keep, replace];
      if (!required.has(name)) choices.push(fc.constant(undefined));
      return fc.oneof(...choices).map((v) => [name, v] as const);
    });
    return fc.tuple(...fields).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)));
  });
  return fc.oneof({ arbitrary: fromExample, weight: 3 }, { arbitrary: fromSchema, weight: 1 });
}
