// The one schema walker: it reaches the subschemas of every 2020-12 keyword, copies schemas
// through all of them, and lists the properties an instance may carry.
import { describe, expect, it } from 'vitest';
import { CARRYING_KEYWORDS, SUBSCHEMA_KEYWORDS, appliedSubschemas, mapSubschemas, memberSchemas, ownProperties, schemaParts, subschemas, walkProperties, walkSchema } from '../lib/schema-walk.mjs';
import { loadBundle } from './helpers.mjs';
import { deref } from '../lib/walk.mjs';

// One schema using each keyword that holds subschemas; each subschema is marked with the
// keyword that holds it, so a missed keyword shows by name.
const mark = (keyword) => ({ title: keyword });
const everyKeyword = {
  properties: { a: mark('properties') },
  patternProperties: { '^x_': mark('patternProperties') },
  additionalProperties: mark('additionalProperties'),
  propertyNames: mark('propertyNames'),
  dependentSchemas: { a: mark('dependentSchemas') },
  unevaluatedProperties: mark('unevaluatedProperties'),
  prefixItems: [mark('prefixItems')],
  items: mark('items'),
  contains: mark('contains'),
  unevaluatedItems: mark('unevaluatedItems'),
  allOf: [mark('allOf')],
  anyOf: [mark('anyOf')],
  oneOf: [mark('oneOf')],
  not: mark('not'),
  if: mark('if'),
  then: mark('then'),
  else: mark('else'),
  contentSchema: mark('contentSchema'),
  $defs: { d: mark('$defs') },
  // not schemas: left alone
  required: ['a'],
  enum: [{ title: 'enum' }],
  examples: [{ title: 'examples' }],
};
const KEYWORDS = ['properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'dependentSchemas',
  'unevaluatedProperties', 'prefixItems', 'items', 'contains', 'unevaluatedItems', 'allOf', 'anyOf', 'oneOf',
  'not', 'if', 'then', 'else', 'contentSchema', '$defs'];

describe('the schema walker', () => {
  it('knows every 2020-12 keyword that holds subschemas, and nothing else', () => {
    expect(Object.keys(SUBSCHEMA_KEYWORDS).sort()).toEqual([...KEYWORDS].sort());
  });

  it('lists the direct subschemas of each keyword with where they sit', () => {
    const found = [...subschemas(everyKeyword)];
    expect(found.map((s) => s.schema.title).sort()).toEqual([...KEYWORDS].sort());
    expect(found.find((s) => s.keyword === 'prefixItems')).toEqual({ keyword: 'prefixItems', key: 0, schema: { title: 'prefixItems' } });
    expect(found.find((s) => s.keyword === 'patternProperties').key).toBe('^x_');
    expect(found.find((s) => s.keyword === 'not')).toEqual({ keyword: 'not', schema: { title: 'not' } });
    expect([...subschemas(everyKeyword, ['items', 'not'])].map((s) => s.keyword)).toEqual(['items', 'not']);
    expect([...subschemas(true)]).toEqual([]);
  });

  it('gives each subschema its JSON pointer when the schema\'s own is given, escaping keys', () => {
    const schema = { properties: { 'a/b': { title: 'slash' }, 'c~d': { title: 'tilde' } }, allOf: [{ title: 'first' }], not: { title: 'not' } };
    expect([...subschemas(schema, ['properties', 'allOf', 'not'], '#/components/schemas/X')].map((s) => s.pointer)).toEqual([
      '#/components/schemas/X/properties/a~1b', '#/components/schemas/X/properties/c~0d', '#/components/schemas/X/allOf/0', '#/components/schemas/X/not',
    ]);
    expect([...subschemas(schema, ['not'])][0]).not.toHaveProperty('pointer');
  });

  it('visits every schema once, depth first, with its path, and stops below a visit that answers false', () => {
    const shared = { type: 'string' };
    const root = { ...everyKeyword, allOf: [{ properties: { deep: { items: shared } } }], anyOf: [shared] };
    const paths = [];
    walkSchema(root, (schema, step) => { paths.push(step.path.join('/')); });
    expect(paths).toContain('allOf/0/properties/deep/items');
    expect(paths).toContain('propertyNames');
    expect(paths).toContain('unevaluatedItems');
    expect(paths).toContain('dependentSchemas/a');
    expect(paths).not.toContain('anyOf/0'); // the shared schema was already visited
    const pruned = [];
    walkSchema(root, (schema, step) => { pruned.push(step.path.join('/')); return step.keyword !== 'allOf'; });
    expect(pruned).toContain('allOf/0');
    expect(pruned).not.toContain('allOf/0/properties/deep');
  });

  it('follows $refs through resolve, and ends on cycles', () => {
    const document = { components: { schemas: { Node: { properties: { next: { $ref: '#/components/schemas/Node' }, leaf: { $ref: '#/components/schemas/Leaf' } } }, Leaf: { propertyNames: { pattern: '^[a-z]+$' } } } } };
    const resolve = (node) => deref(document, node)[0];
    const seen = [];
    walkSchema({ $ref: '#/components/schemas/Node' }, (schema, step) => { seen.push(step.path.join('/')); }, { resolve });
    expect(seen).toEqual(['', 'properties/leaf', 'properties/leaf/propertyNames']);
  });

  it('copies a schema through every keyword, leaving what is not a schema as it is', () => {
    const copy = mapSubschemas(everyKeyword, (sub, where) => ({ ...sub, at: `${where.keyword}${where.key === undefined ? '' : `/${where.key}`}` }));
    expect(copy.propertyNames).toEqual({ title: 'propertyNames', at: 'propertyNames' });
    expect(copy.unevaluatedItems.at).toBe('unevaluatedItems');
    expect(copy.prefixItems[0].at).toBe('prefixItems/0');
    expect(copy.$defs.d.at).toBe('$defs/d');
    expect(copy.enum).toBe(everyKeyword.enum);
    expect(copy.examples).toBe(everyKeyword.examples);
    expect(everyKeyword.items).toEqual({ title: 'items' }); // the original is untouched
    expect(mapSubschemas(false, () => { throw new Error('called'); })).toBe(false);
  });

  it('lists the properties an instance may carry, not those of not, if and propertyNames', () => {
    const named = (name) => ({ properties: { [name]: { type: 'string' } } });
    const schema = {
      ...named('own'),
      allOf: [named('inAllOf')],
      dependentSchemas: { own: named('dependent') },
      items: named('item'),
      contains: named('contained'),
      unevaluatedItems: named('unevaluatedItem'),
      then: named('inThen'),
      not: named('forbidden'),
      if: named('condition'),
      propertyNames: named('nameRule'),
    };
    const names = [];
    walkProperties(schema, (node) => node, (name) => { names.push(name); });
    expect(names.sort()).toEqual(['contained', 'dependent', 'inAllOf', 'inThen', 'item', 'own', 'unevaluatedItem']);
    expect(CARRYING_KEYWORDS).not.toContain('not');
  });

  it('visits a property wherever it is declared, and leaves out what lies below a property answered false', () => {
    const id = { type: 'integer' };
    const schema = { properties: { a: id, b: id, secret: { writeOnly: true, properties: { inner: id } } } };
    const names = [];
    walkProperties(schema, (node) => node, (name, raw) => { names.push(name); return raw.writeOnly !== true; });
    expect(names).toEqual(['a', 'b', 'secret']);
  });

  it('gives the parts of a schema that apply to the same value: itself first, then its branches, in keyword order', () => {
    const document = { components: { schemas: { Base: { title: 'base', allOf: [{ title: 'inner' }] } } } };
    const resolve = (node) => deref(document, node)[0];
    const schema = { title: 'own', oneOf: [{ title: 'one' }], allOf: [{ $ref: '#/components/schemas/Base' }], then: { title: 'then' }, items: { title: 'items' } };
    expect(schemaParts(schema, { resolve }).map((p) => p.title)).toEqual(['own', 'base', 'inner', 'one']);
    expect(schemaParts(schema, { resolve, keywords: ['oneOf', 'then'] }).map((p) => p.title)).toEqual(['own', 'one', 'then']);
    expect(schemaParts(schema, { resolve, maxDepth: 1 }).map((p) => p.title)).toEqual(['own', 'base', 'one']);
    expect(schemaParts(undefined)).toEqual([]);
  });

  it('leaves a schema after what lies below it, so parts come before the schema that holds them', () => {
    const order = [];
    const root = { title: 'root', allOf: [{ title: 'a', allOf: [{ title: 'a1' }] }, { title: 'b' }] };
    walkSchema(root, () => {}, { leave: (schema, step) => { order.push(`${schema.title}@${step.path.join('/')}`); } });
    expect(order).toEqual(['a1@allOf/0/allOf/0', 'a@allOf/0', 'b@allOf/1', 'root@']);
  });

  it('gives the properties a schema declares for its own object, its allOf parts included, the nearest declaration kept', () => {
    const document = { components: { schemas: { Base: { properties: { id: { title: 'base id' }, created: { title: 'created' } } } } } };
    const resolve = (node) => deref(document, node)[0];
    const schema = {
      properties: { id: { title: 'own id' }, label: { title: 'label' } },
      allOf: [{ $ref: '#/components/schemas/Base' }, { allOf: [{ properties: { deep: { title: 'deep' } } }] }],
      oneOf: [{ properties: { branch: {} } }],
      items: { properties: { item: {} } },
    };
    const props = ownProperties(schema, { resolve });
    // The parts' names first (in the parts' order), then the schema's own; `id` is the schema's own.
    expect(Object.keys(props)).toEqual(['id', 'created', 'deep', 'label']);
    expect(props.id.title).toBe('own id');
    expect(ownProperties(schema)).not.toHaveProperty('created'); // a $ref is followed only through resolve
    expect(ownProperties(undefined)).toEqual({});
    const cycle = { properties: { a: {} }, allOf: [] };
    cycle.allOf.push(cycle);
    expect(Object.keys(ownProperties(cycle))).toEqual(['a']);
  });

  it('gives the schemas a member of a value must meet: properties, prefixItems or items, through allOf', () => {
    const item = { title: 'item' };
    const schema = {
      properties: { a: { title: 'own a' } },
      prefixItems: [{ title: 'first' }],
      items: item,
      allOf: [{ properties: { a: { title: 'part a' } } }, { items: { title: 'part item' } }],
      oneOf: [{ properties: { b: {} } }],
    };
    expect(memberSchemas(schema, 'a').map((s) => s.title)).toEqual(['own a', 'part a']);
    expect(memberSchemas(schema, 0).map((s) => s.title)).toEqual(['first', 'part item']);
    expect(memberSchemas(schema, '3').map((s) => s.title)).toEqual(['item', 'part item']);
    expect(memberSchemas(schema, 'b')).toEqual([]); // only in an alternative branch
    expect(memberSchemas({ properties: { toString: true } }, 'constructor')).toEqual([]);
    expect(memberSchemas({ prefixItems: [{}], items: false }, 1)).toEqual([false]);
  });

  it('gives the subschemas an evaluator applies to a value itself: allOf, the branches it matches, the branch if chooses, dependentSchemas of present members', () => {
    const titled = (title) => ({ title });
    const schema = {
      allOf: [titled('all')],
      anyOf: [titled('any-miss'), titled('any-hit')],
      oneOf: [titled('one-miss')],
      if: titled('if'),
      then: titled('then'),
      else: titled('else'),
      dependentSchemas: { present: titled('dep-present'), absent: titled('dep-absent') },
      properties: { present: titled('property') },
    };
    const hits = new Set(['any-hit', 'if']);
    const applied = appliedSubschemas(schema, { present: 1 }, (sub) => hits.has(sub.schema.title));
    // One-of matches nothing: all its branches apply, so a failing value still finds its fields.
    expect(applied.map((s) => s.schema.title)).toEqual(['all', 'any-hit', 'one-miss', 'if', 'then', 'dep-present']);
    expect(applied.find((s) => s.keyword === 'anyOf').key).toBe(1);
    expect(appliedSubschemas(schema, [], () => false).map((s) => s.schema.title)).toEqual(['all', 'any-miss', 'any-hit', 'one-miss', 'if', 'else']);
    expect(appliedSubschemas({ then: titled('then') }, {}, () => true)).toEqual([]); // then without if
  });

  it('reaches every schema of the bundle that the request view transforms', () => {
    const bundle = loadBundle();
    let propertyNamesSchemas = 0;
    for (const schema of Object.values(bundle.components.schemas)) {
      walkSchema(schema, (s, step) => { if (step.keyword === 'propertyNames') propertyNamesSchemas++; });
    }
    // The bundle constrains tag and label maps by their names (propertyNames): a walker that
    // lost the keyword (as a copy of it once did) would find none.
    expect(propertyNamesSchemas).toBeGreaterThan(0);
  });
});
