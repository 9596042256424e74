// generateValid on its own, with a stand-in generator: it repairs only the parts that break the
// schema, converges on lists of independent items, widens to the parent when a part cannot be
// fixed alone, is repeatable with a seed, and says so when it gives up.
import { describe, expect, it } from 'vitest';
import { createAjv } from '@cloudapi/spec/schema-views';
import { childSchema, generateValid } from '../src/generation.mjs';

const ajv = createAjv();
const checker = (schema) => {
  const validate = ajv.compile(schema);
  return (value) => ({ valid: validate(value), errors: validate.errors ?? [] });
};

// A domain-like item: a master has an email, a slave at least one address.
const item = {
  type: 'object',
  required: ['type', 'contact', 'ips'],
  properties: { type: { enum: ['master', 'slave'] }, contact: { type: 'string' }, ips: { type: 'array', items: { type: 'string' } } },
  if: { properties: { type: { const: 'master' } } },
  then: { properties: { contact: { format: 'email' } } },
  else: { properties: { ips: { minItems: 1 } } },
};
const list = { type: 'object', required: ['data'], properties: { data: { type: 'array', items: item } } };

// Like json-schema-faker: follows each field's keywords, ignores if/then/else. `random` decides
// what the keywords leave open; a field given with a branch's demand (`allOf`) meets it.
function naive(schema, random) {
  if (schema === list) return { data: Array.from({ length: 6 }, () => naive(item, random)) };
  if (schema === item) return { type: random() < 0.5 ? 'master' : 'slave', contact: random() < 0.5 ? 'ops@example.com' : 'ops', ips: random() < 0.5 ? [] : ['192.0.2.1'] };
  const parts = schema.allOf ?? [schema];
  if (parts.some((part) => part.format === 'email')) return 'ops@example.com';
  if (parts.some((part) => part.minItems)) return ['192.0.2.1'];
  throw new Error('no such schema');
}
function seeded(seed) {
  let state = [...String(seed)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  return () => { state = (state * 1103515245 + 12345) >>> 0; return state / 2 ** 32; };
}

// A DNS-record-like item: a CAA record's tag is text, any other record's tag is null. The field's
// own declaration allows both; only the branch the record takes says which.
const record = {
  type: 'object',
  required: ['type', 'tag'],
  properties: { type: { enum: ['SRV', 'CAA'] }, tag: { type: ['string', 'null'] } },
  if: { properties: { type: { const: 'CAA' } } },
  then: { properties: { tag: { type: 'string' } } },
  else: { properties: { tag: { type: 'null' } } },
};

describe('generateValid', () => {
  it("regenerates a field that breaks a branch's rule from the field's schema and the branch's, not the whole object", () => {
    const records = { type: 'object', required: ['data'], properties: { data: { type: 'array', items: record } } };
    const asked = [];
    // Writes text for a field that may be text or null, unless a schema it is given allows null only.
    const generate = (schema) => {
      if (schema === records) return { data: [{ type: 'SRV', tag: 'x' }, { type: 'CAA', tag: 'y' }] };
      asked.push(schema);
      return (schema.allOf ?? [schema]).some((part) => part.type === 'null') ? null : 'text';
    };
    const result = generateValid({ schema: records, check: checker(records), generate });
    expect(result.valid).toBe(true);
    expect(result.value.data).toEqual([{ type: 'SRV', tag: null }, { type: 'CAA', tag: 'y' }]);
    expect(asked).toEqual([{ allOf: [record.properties.tag, record.else.properties.tag] }]);
  });


  it('repairs each failing item of a list until the whole answer validates, regenerating only what fails in them', () => {
    const calls = [];
    const random = seeded('list');
    const result = generateValid({ schema: list, check: checker(list), generate: (schema) => { calls.push(schema === list ? 'list' : schema === item ? 'item' : 'field'); return naive(schema, random); } });
    expect(result.valid).toBe(true);
    expect(checker(list)(result.value).valid).toBe(true);
    expect(result.value.data).toHaveLength(6);
    expect(calls[0]).toBe('list');
    expect(calls.slice(1).length).toBeGreaterThan(0);
    expect(calls.slice(1).every((c) => c === 'field')).toBe(true); // the failing fields with their branch's rule: never the whole list again
    expect(result.repairs).toBe(calls.length - 1);
  });

  it('is repeatable with a seed: each repair draws from a seed derived from it', () => {
    const run = (seed) => generateValid({ schema: list, seed, check: checker(list), generate: (schema, partSeed) => naive(schema, seeded(partSeed ?? seed)) }).value;
    expect(run('42')).toEqual(run('42'));
    expect(run('42')).not.toEqual(run('43'));
  });

  it('regenerates the enclosing object when the failing part has no schema of its own', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'object' } }, oneOf: [{ properties: { a: { required: ['x'] } } }] };
    const seen = [];
    let n = 0;
    const result = generateValid({ schema, check: checker(schema), generate: (s) => { seen.push(s); n++; return n < 3 ? { a: {} } : { a: { x: 1 } }; } });
    expect(result.valid).toBe(true);
    expect(seen.every((s) => s === schema)).toBe(true);
  });

  it('widens to the parent when a part keeps failing alone', () => {
    // b must equal a: regenerating b alone can never satisfy a rule that sits on the parent.
    const schema = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], if: { properties: { a: { const: 1 } } }, then: { properties: { b: { const: 1 } } }, else: { properties: { b: { const: 2 } } } };
    const random = seeded('widen');
    const targets = [];
    const result = generateValid({
      schema, triesPerPart: 3, check: checker(schema),
      generate: (s) => { targets.push(s === schema ? 'whole' : 'part'); return s === schema ? { a: random() < 0.5 ? 1 : 2, b: random() < 0.5 ? 1 : 2 } : 5; },
    });
    expect(result.valid).toBe(true);
    expect(targets).toContain('whole');
  });

  it('gives up after its rounds and says so, returning the last value', () => {
    const schema = { type: 'object', required: ['never'] };
    const result = generateValid({ schema, rounds: 5, check: checker(schema), generate: () => ({}) });
    expect(result.valid).toBe(false);
    expect(result.repairs).toBe(5);
  });
});

describe('childSchema', () => {
  it('finds a part through properties, items, prefixItems and allOf', () => {
    expect(childSchema(list, 'data')).toBe(list.properties.data);
    expect(childSchema(list.properties.data, '3')).toBe(item);
    expect(childSchema({ prefixItems: [{ const: 1 }], items: { const: 2 } }, '0')).toEqual({ const: 1 });
    expect(childSchema({ prefixItems: [{ const: 1 }], items: { const: 2 } }, '4')).toEqual({ const: 2 });
    const both = childSchema({ properties: { a: { type: 'string' } }, allOf: [{ properties: { a: { minLength: 2 } } }] }, 'a');
    expect(both).toEqual({ allOf: [{ type: 'string' }, { minLength: 2 }] });
    expect(childSchema({ oneOf: [{ properties: { a: {} } }] }, 'a')).toBeUndefined();
  });
});
