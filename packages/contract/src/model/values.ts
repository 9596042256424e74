// Values built from schemas where the spec gives no example: a parameter without one, or a field
// that a negative variant must add to make a conditional rule apply. Every value is checked
// against its schema by the caller; these are only first guesses.
import { subschemas } from '@cloudapi/spec/schema-walk';

const FORMAT_SAMPLES: Record<string, string> = {
  email: 'someone@example.com',
  uri: 'https://example.com/',
  'uri-reference': '/example',
  url: 'https://example.com/',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'host.example',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  date: '2018-01-01',
  'date-time': '2018-01-01T00:01:01Z',
};

/** The JSON types a schema admits: its `type`, or object/array when it declares properties/items. */
export function typesOf(schema: any): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.required) return ['object'];
  if (schema.items || schema.prefixItems) return ['array'];
  return [];
}

/** A guess at a valid value for `schema` (with `$ref`s resolved through `resolve`). */
export function sampleValue(schema: any, resolve: (node: any) => any, depth = 0): any {
  const s = resolve(schema);
  if (!s || typeof s !== 'object' || depth > 8) return undefined;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.find((v: any) => v !== null) ?? s.enum[0];
  // allOf: every part's value merged; oneOf, anyOf: the first branch that is not null.
  const [keyword] = ['allOf', 'oneOf', 'anyOf'].filter((key) => Array.isArray(s[key]));
  const branches = keyword ? [...subschemas(s, [keyword])].map((b) => b.schema) : [];
  if (keyword === 'allOf') {
    const parts: any[] = branches.map((part: any) => sampleValue(part, resolve, depth + 1));
    if (parts.every((p: any) => p && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts, sampleObject(s, resolve, depth));
    return parts.find((p: any) => p !== undefined);
  }
  if (keyword) return sampleValue(branches.map((b: any) => resolve(b)).find((b: any) => b && b.type !== 'null') ?? branches[0], resolve, depth + 1);
  const [type] = typesOf(s).filter((t: any) => t !== 'null');
  switch (type) {
    case 'integer':
    case 'number': {
      if (typeof s.minimum === 'number') return s.minimum;
      if (typeof s.exclusiveMinimum === 'number') return type === 'integer' ? Math.floor(s.exclusiveMinimum) + 1 : s.exclusiveMinimum + 1;
      if (typeof s.maximum === 'number') return Math.min(1, s.maximum);
      return 1;
    }
    case 'boolean': return true;
    case 'string': {
      if (FORMAT_SAMPLES[s.format]) return FORMAT_SAMPLES[s.format];
      const length = Math.max(s.minLength ?? 0, Math.min(7, s.maxLength ?? 7));
      return 'example'.padEnd(length, 'x').slice(0, Math.max(length, s.minLength ?? 0));
    }
    case 'array': {
      const [items] = [...subschemas(s, ['items'])].filter((x) => typeof x.schema === 'object');
      const item: any = items ? sampleValue(items.schema, resolve, depth + 1) : undefined;
      const count = s.minItems ?? 0;
      return Array.from({ length: count }, (_: any, i: any) => (typeof item === 'number' ? item + i : typeof item === 'string' && s.uniqueItems ? `${item}${i}` : item));
    }
    case 'object': return sampleObject(s, resolve, depth);
    case 'null': return null;
    default: return undefined;
  }
}

function sampleObject(s: any, resolve: any, depth: any): Record<string, any> {
  const out: Record<string, any> = {};
  for (const name of s.required || []) {
    const value = sampleValue((s.properties || {})[name] ?? {}, resolve, depth + 1);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A value of another JSON type than `value`, for "wrong type" variants. */
export function wrongTypeFor(value: any, schema: any) {
  const allowed = new Set(typesOf(schema));
  const candidates = [
    ['string', 'not-a-number'], ['integer', 12345], ['boolean', true], ['array', ['x']], ['object', { x: 1 }],
  ];
  if (typeof value === 'string' || allowed.has('string')) candidates.unshift(['integer', 12345]);
  else candidates.unshift(['string', typeof value === 'boolean' ? 'yes' : typeof value === 'number' ? 'not-a-number' : Array.isArray(value) ? 'not-an-array' : 'not-an-object']);
  const fits = (type: any) => allowed.has(type) || (type === 'integer' && allowed.has('number'));
  const found = candidates.find(([type]: any) => !fits(type) && !(allowed.size === 0 && type === jsonType(value)));
  return found ? found[1] : undefined;
}

export function jsonType(value: any) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}
