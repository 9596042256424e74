// What a command line can do with a schema of the bundle: its kind (a scalar, an array of scalars,
// an object of fields, or something only `--data` can send), merged across `$ref`, `allOf`,
// `oneOf`/`anyOf` branches and `if`/`then`/`else`, so every field any form accepts is a flag.
import { resolvePointer } from '@cloudapi/spec/json-pointer';
import { schemaParts } from '@cloudapi/spec/schema-walk';

const SCALARS = ['string', 'integer', 'number', 'boolean'];

export function resolve(document, schema) {
  let current = schema;
  for (let i = 0; current && typeof current.$ref === 'string' && i < 32; i++) current = resolvePointer(document, current.$ref);
  return current && typeof current === 'object' ? current : {};
}

/** Every subschema that applies to a value of `schema` (itself, its branches, then/else), resolved. */
export function parts(document, schema) {
  return schemaParts(schema, { resolve: (node) => resolve(document, node), keywords: ['allOf', 'oneOf', 'anyOf', 'then', 'else'], maxDepth: 12 });
}

/** The JSON types a schema allows, from every part: ['integer', 'null']. */
function typesOf(document, schema) {
  const types = new Set();
  for (const part of parts(document, schema)) {
    for (const type of [part.type ?? []].flat()) types.add(type);
    if (part.const === null) types.add('null');
    if (Array.isArray(part.enum)) for (const value of part.enum) types.add(value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value);
  }
  return [...types];
}

/** The first value found for `key` in the parts of a schema (description, enum, format...). */
const first = (document, schema, key) => parts(document, schema).map((part) => part[key]).find((value) => value !== undefined);

/**
 * How a schema is given on the command line:
 * `{ kind: 'scalar', type, nullable, enum?, file? }`, `{ kind: 'array', item: <scalar shape> }`,
 * `{ kind: 'object', properties: { name: schema }, required: [] }` or `{ kind: 'data' }`.
 */
export function shapeOf(document, schema) {
  const types = typesOf(document, schema);
  const nullable = types.includes('null');
  const real = types.filter((type) => type !== 'null');
  const all = parts(document, schema);
  if (real.length === 1 && real[0] === 'object' || (!real.length && all.some((part) => part.properties))) {
    const properties = {};
    const required = new Set();
    for (const part of all) {
      Object.assign(properties, Object.fromEntries(Object.entries(part.properties ?? {}).filter(([name]) => !(name in properties))));
    }
    for (const name of resolve(document, schema).required ?? []) required.add(name);
    for (const part of all.filter((p) => p !== resolve(document, schema) && !p.if)) {
      // `required` of an allOf member holds whatever the value is; of a oneOf branch, only sometimes.
      if ((resolve(document, schema).allOf ?? []).some((sub) => resolve(document, sub) === part)) for (const name of part.required ?? []) required.add(name);
    }
    return { kind: 'object', properties, required: [...required], nullable };
  }
  if (real.length === 1 && real[0] === 'array') {
    const item = shapeOf(document, first(document, schema, 'items') ?? {});
    return item.kind === 'scalar' ? { kind: 'array', item, nullable } : { kind: 'data' };
  }
  const scalar = real.filter((type) => SCALARS.includes(type));
  if (scalar.length && scalar.length === real.length) {
    // integer beside number is a number; string beside anything else takes what is typed.
    const type = scalar.length === 1 ? scalar[0] : scalar.every((t) => t === 'integer' || t === 'number') ? 'number' : 'string';
    const values = all.flatMap((part) => (Array.isArray(part.enum) ? part.enum : part.const !== undefined ? [part.const] : [])).filter((v) => v !== null);
    return { kind: 'scalar', type, nullable, ...(values.length ? { enum: [...new Set(values)] } : {}), ...(isFile(document, schema) ? { file: true } : {}) };
  }
  return { kind: 'data' };
}

/** A file's bytes: `format: binary` (3.0) or a `contentMediaType` (3.1). */
const isFile = (document, schema) => first(document, schema, 'format') === 'binary' || first(document, schema, 'contentMediaType') !== undefined;

export const descriptionOf = (document, schema) => first(document, schema, 'description');
export const isReadOnly = (document, schema) => parts(document, schema).some((part) => part.readOnly === true);
