// Negative variants of a request body: copies of a valid example that each break one rule of the
// body's schema (a required field left out, a wrong type, a value out of range, an unknown enum
// value, a bad pattern or format, an undeclared field, a broken conditional rule). Each variant
// records the field(s) it breaks, so an error body can be checked for naming one of them, and is
// kept only when the schema itself rejects it (the request view of schema-views decides).
import { escapePointerPart, pointerGet } from '@cloudapi/spec/schema-views';
import { jsonType, sampleValue, wrongTypeFor } from './values.js';

/** A negative variant of a request body: one broken rule, the fields it breaks and the value. */
export interface Variant { rule: string; fields: string[]; value: any; description: string }

export const RULES = ['required', 'type', 'range', 'enum', 'pattern', 'format', 'unknown field', 'conditional'];
const FORMAT_BREAKERS: Record<string, string> = { email: 'not-an-email', uri: 'not a uri', ipv4: '999.1.1', ipv6: 'not-an-ipv6', hostname: '-not-a-host-', uuid: 'not-a-uuid', date: '2018-13-45', 'date-time': 'yesterday' };
const UNKNOWN_FIELD = 'unexpected_field';
const isObject = (v: any) => v !== null && typeof v === 'object' && !Array.isArray(v);
const sub = (pointer: any, ...parts: any[]) => `${pointer}/${parts.map(escapePointerPart).join('/')}`;

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

export function createVariantDeriver(views: any) {
  const { document } = views;
  const matches = (pointer: any, value: any) => views.validate('request', pointer, value).valid;
  const resolved = (pointer: any) => {
    let at = pointer;
    let node = pointerGet(document, at);
    for (let i = 0; node && typeof node.$ref === 'string' && i < 32; i++) { at = node.$ref; node = pointerGet(document, at); }
    return [node, at];
  };
  const resolveNode = (node: any) => (node && typeof node.$ref === 'string' ? resolved(node.$ref)[0] : node);

  // What the schemas at `pointers` say about an object or array value: property schemas, required
  // names, closed or not, item schemas, and the pointers of the schemas carrying conditional rules.
  function shapeOf(pointers: any, value: any, into: any = { properties: {}, required: new Set(), closed: false, items: [], conditionals: [], constraints: {} }, depth: any = 0) {
    for (const pointer of pointers) {
      const [schema, at] = resolved(pointer);
      if (!schema || typeof schema !== 'object' || depth > 16) continue;
      for (const name of Object.keys(schema.properties || {})) (into.properties[name] ??= []).push(sub(at, 'properties', name));
      for (const name of schema.required || []) into.required.add(name);
      if (schema.additionalProperties === false || schema.unevaluatedProperties === false) into.closed = true;
      if (schema.items && typeof schema.items === 'object') into.items.push(sub(at, 'items'));
      if (schema.if || schema.dependentRequired || schema.not || schema.oneOf) into.conditionals.push(at);
      for (const [key, v] of Object.entries(schema)) if (!(key in into.constraints)) into.constraints[key] = v;
      (schema.allOf || []).forEach((_: any, i: any) => shapeOf([sub(at, 'allOf', i)], value, into, depth + 1));
      for (const key of ['anyOf', 'oneOf']) {
        const branches = (schema[key] || []).map((_: any, i: any) => sub(at, key, i));
        const matching = branches.filter((b: any) => matches(b, value));
        shapeOf(matching.length ? matching : branches.filter((b: any) => resolved(b)[0]?.type !== 'null'), value, into, depth + 1);
      }
    }
    return into;
  }

  function sampleFor(props: any, name: any, fallbackSchema?: any) {
    const pointers = props[name] || [];
    for (const pointer of pointers) {
      const value = sampleValue(resolved(pointer)[0], resolveNode);
      if (value !== undefined && matches(pointer, value)) return value;
    }
    return fallbackSchema ? sampleValue(fallbackSchema, resolveNode) : undefined;
  }

  // Makes `value` match the simple object schema at `pointer` (required names, const properties,
  // `not`, `allOf`); returns the new value and the fields involved, or null when it cannot.
  function satisfy(pointer: any, value: any, props: any): { value: any; fields: string[] } | null {
    const [schema, at] = resolved(pointer);
    if (!schema || typeof schema !== 'object' || !isObject(value)) return null;
    let v = { ...value };
    const fields = [];
    for (const name of schema.required || []) {
      fields.push(name);
      if (name in v) continue;
      const local = resolveNode((schema.properties || {})[name]);
      const sample = local && local.const !== undefined ? local.const : sampleFor(props, name, local);
      if (sample === undefined) return null;
      v[name] = sample;
    }
    for (const [name, raw] of Object.entries(schema.properties || {})) {
      const property = resolveNode(raw);
      if (!(name in v) || !property) continue;
      if (property.const !== undefined && v[name] !== property.const) { v[name] = property.const; fields.push(name); }
      if (Array.isArray(property.enum) && !property.enum.includes(v[name])) { v[name] = property.enum[0]; fields.push(name); }
    }
    if (schema.not) {
      const r: { value: any; fields: string[] } | null = unsatisfy(sub(at, 'not'), v, props);
      if (!r) return null;
      v = r.value; fields.push(...r.fields);
    }
    for (const [i] of (schema.allOf || []).entries()) {
      const r: { value: any; fields: string[] } | null = satisfy(sub(at, 'allOf', i), v, props);
      if (!r) return null;
      v = r.value; fields.push(...r.fields);
    }
    return { value: v, fields };
  }

  // The top-level fields of `value` that the schema at `pointer` finds fault with.
  function fieldsFailing(pointer: any, value: any) {
    return views.validate('request', pointer, value).errors.map((e: any) => {
      const missing = e.params && (e.params.missingProperty || (e.keyword === 'additionalProperties' && e.params.additionalProperty));
      return missing || e.path.split('/').filter(Boolean)[0];
    }).filter(Boolean);
  }

  // Makes `value` fail the simple object schema at `pointer`; null when it cannot.
  function unsatisfy(pointer: any, value: any, props: any): { value: any; fields: string[] } | null {
    const [schema, at] = resolved(pointer);
    if (!schema || typeof schema !== 'object' || !isObject(value)) return null;
    const v = { ...value };
    const required = schema.required || [];
    if (required.length) {
      const present = required.filter((name: any) => name in v);
      if (present.length < required.length) return { value: v, fields: required.filter((name: any) => !(name in v)) };
      delete v[present[present.length - 1]];
      return { value: v, fields: [present[present.length - 1]] };
    }
    for (const [name, raw] of Object.entries(schema.properties || {})) {
      const property = resolveNode(raw);
      if (!(name in v) || !property) continue;
      if (property.const !== undefined) {
        const other = typeof property.const === 'boolean' ? !property.const : typeof property.const === 'number' ? property.const + 1 : `${property.const}-other`;
        return { value: { ...v, [name]: other }, fields: [name] };
      }
    }
    if (schema.not) return satisfy(sub(at, 'not'), v, props);
    for (const [i] of (schema.allOf || []).entries()) {
      const r: { value: any; fields: string[] } | null = unsatisfy(sub(at, 'allOf', i), v, props);
      if (r) return r;
    }
    return null;
  }

  // Variants that break the conditional rules of the object schema at `pointer`.
  function* conditionalVariants(pointer: any, candidates: any, props: any) {
    const [schema, at] = resolved(pointer);
    if (schema.if) {
      for (const [branch, enter] of [['then', satisfy], ['else', unsatisfy]] as const) {
        if (!schema[branch]) continue;
        for (const candidate of candidates) {
          const entered = enter(sub(at, 'if'), candidate, props);
          if (!entered || matches(sub(at, 'if'), entered.value) !== (branch === 'then')) continue;
          const broken = unsatisfy(sub(at, branch), entered.value, props);
          if (!broken || matches(sub(at, branch), broken.value)) continue;
          // The candidate may already break the branch through a field unsatisfy did not touch
          // (an AAAA example's target once its type becomes A): name that field too.
          const offending = [...broken.fields, ...fieldsFailing(sub(at, branch), broken.value)];
          yield { rule: 'conditional', fields: [...new Set([...offending, ...entered.fields])], value: broken.value, description: `breaks the if/${branch} rule (${[...new Set(offending)].join(', ')})` };
          break;
        }
      }
    }
    for (const [name, needed] of Object.entries(schema.dependentRequired || {}) as [string, string[]][]) {
      for (const candidate of candidates) {
        const v = { ...candidate };
        if (!(name in v)) {
          const sample = sampleFor(props, name);
          if (sample === undefined) continue;
          v[name] = sample;
        }
        const missing = needed[0] as string;
        delete v[missing];
        yield { rule: 'conditional', fields: [missing, name], value: v, description: `"${name}" without "${missing}" (dependentRequired)` };
        break;
      }
    }
    if (schema.not) {
      for (const candidate of candidates) {
        const r: { value: any; fields: string[] } | null = satisfy(sub(at, 'not'), candidate, props);
        if (!r || !matches(sub(at, 'not'), r.value)) continue;
        yield { rule: 'conditional', fields: [...new Set(r.fields)], value: r.value, description: `matches what "not" forbids (${[...new Set(r.fields)].join(', ')})` };
        break;
      }
    }
    if (Array.isArray(schema.oneOf)) {
      const branches = schema.oneOf.map((_: any, i: any) => sub(at, 'oneOf', i));
      done: for (const candidate of candidates) {
        const own = branches.findIndex((b: any) => matches(b, candidate));
        if (own < 0) continue;
        for (const [i, branch] of branches.entries()) {
          if (i === own) continue;
          // The candidate given what another branch requires matches both branches, or neither
          // when the branches are closed: either way not exactly one.
          const r: { value: any; fields: string[] } | null = satisfy(branch, candidate, props);
          if (!r || branches.filter((b: any) => matches(b, r.value)).length === 1) continue;
          const fields = [...new Set([...r.fields, ...Object.keys(candidate)])];
          yield { rule: 'conditional', fields, value: r.value, description: `matches ${matches(branch, r.value) ? 'two oneOf branches' : 'no oneOf branch'} (${[...new Set(r.fields)].join(', ')} added)` };
          break done;
        }
      }
    }
  }

  // Variants of one field's value, from the constraints of its schema.
  function* leafVariants(c: any, value: any) {
    const wrong = wrongTypeFor(value, c);
    if (wrong !== undefined && value !== null) yield ['type', wrong, `${jsonType(wrong)} instead of ${[].concat(c.type ?? jsonType(value)).join(' or ')}`];
    if (Array.isArray(c.enum)) {
      const other = c.enum.every((e: any) => typeof e === 'number') ? Math.max(...c.enum) + 1 : 'not-a-listed-value';
      yield ['enum', other, `${JSON.stringify(other)}, not one of its values`];
    } else if (c.const !== undefined && typeof c.const !== 'object') {
      const other = typeof c.const === 'boolean' ? !c.const : typeof c.const === 'number' ? c.const + 1 : `${c.const}-other`;
      yield ['enum', other, `${JSON.stringify(other)} instead of the constant ${JSON.stringify(c.const)}`];
    }
    if (typeof value === 'number') {
      const step = Number.isInteger(value) ? 1 : 0.5;
      if (typeof c.minimum === 'number') yield ['range', c.minimum - step, `${c.minimum - step}, below the minimum ${c.minimum}`];
      if (typeof c.exclusiveMinimum === 'number') yield ['range', c.exclusiveMinimum, `${c.exclusiveMinimum}, not above the exclusive minimum`];
      if (typeof c.maximum === 'number') yield ['range', c.maximum + step, `${c.maximum + step}, above the maximum ${c.maximum}`];
      if (typeof c.exclusiveMaximum === 'number') yield ['range', c.exclusiveMaximum, `${c.exclusiveMaximum}, not below the exclusive maximum`];
    }
    if (typeof value === 'string') {
      if (c.minLength > 0) yield ['range', 'a'.repeat(c.minLength - 1), `${c.minLength - 1} characters, fewer than ${c.minLength}`];
      if (typeof c.maxLength === 'number' && c.maxLength < 200_000) yield ['range', 'a'.repeat(c.maxLength + 1), `${c.maxLength + 1} characters, more than ${c.maxLength}`];
      if (typeof c.pattern === 'string') {
        const re = new RegExp(c.pattern, 'u');
        const bad = ['!', '', ' x ', '0', 'a'.repeat(Math.max(1, c.minLength ?? 1))].find((s: any) => !re.test(s));
        if (bad !== undefined) yield ['pattern', bad, `${JSON.stringify(bad)}, not matching ${c.pattern}`];
      }
      if (FORMAT_BREAKERS[c.format]) yield ['format', FORMAT_BREAKERS[c.format], `${JSON.stringify(FORMAT_BREAKERS[c.format])}, not a valid ${c.format}`];
    }
    if (Array.isArray(value)) {
      if (c.minItems > 0) yield ['range', value.slice(0, c.minItems - 1), `${c.minItems - 1} items, fewer than ${c.minItems}`];
      if (typeof c.maxItems === 'number' && c.maxItems < 1000 && value.length) yield ['range', Array.from({ length: c.maxItems + 1 }, (_: any, i: any) => value[i % value.length]), `${c.maxItems + 1} items, more than ${c.maxItems}`];
      if (c.uniqueItems && value.length) yield ['range', [value[0], ...value], 'a repeated item (items must be unique)'];
    }
  }

  /**
   * Negative variants of a body.
   * @param {string} schemaPointer the body schema in the bundle
   * @param {unknown[]} examples valid example values of the body (the first is the base)
   * @param {{jsonBody?: boolean, maxDepth?: number}} [options] jsonBody false keeps only the
   *   variants a form encoding carries for sure: a required field left out (every value of a
   *   form is a string, and Prism does not enforce additionalProperties on multipart bodies)
   * @returns {{rule: string, fields: string[], value: unknown, description: string}[]}
   */
  function deriveVariants(schemaPointer: string, examples: any[], { jsonBody = true, maxDepth = 4 }: { jsonBody?: boolean; maxDepth?: number } = {}): Variant[] {
    const valid = examples.filter((e: any) => matches(schemaPointer, e));
    if (!valid.length) return [];
    const base = valid[0];
    const out: Variant[] = [];
    const seen = new Set([JSON.stringify(base)]);
    const add = (rule: string, path: (string | number)[], value: any, description: string, fields: string[] = [dotted(path)]) => {
      if (!jsonBody && rule !== 'required') return;
      const key = JSON.stringify(value);
      if (seen.has(key)) return;
      const result = views.validate('request', schemaPointer, value);
      if (result.valid) return;
      seen.add(key);
      out.push({ rule, fields, value, description: `${dotted(path) || '(body)'}: ${description}` });
    };

    const visit = (pointers: any, value: any, path: any, candidates: any, depth: any) => {
      if (Array.isArray(value)) {
        const shape = shapeOf(pointers, value);
        if (value.length && shape.items.length) visitValue(shape.items, value[0], [...path, 0], depth + 1);
        return;
      }
      if (!isObject(value)) return;
      const shape = shapeOf(pointers, value);
      for (const name of shape.required) {
        if (name in value) add('required', [...path, name], setAt(base, path, deleteAt(value, [name])), 'left out, though required');
      }
      if (shape.closed) add('unknown field', [...path, UNKNOWN_FIELD], setAt(base, path, { ...value, [UNKNOWN_FIELD]: 'x' }), 'a field the schema does not declare');
      for (const [name, child] of Object.entries(value)) {
        if (shape.properties[name]) visitValue(shape.properties[name], child, [...path, name], depth + 1);
      }
      // Optional fields the example leaves out still have enums worth breaking.
      for (const [name, at] of Object.entries(shape.properties)) {
        if (name in value) continue;
        const c = shapeOf(at, undefined).constraints;
        const [variant] = Array.isArray(c.enum) || c.const !== undefined ? [...leafVariants(c, undefined)].filter(([rule]: any) => rule === 'enum') : [];
        if (variant) add('enum', [...path, name], setAt(base, path, { ...value, [name]: variant[1] }), variant[2]);
      }
      for (const at of shape.conditionals) {
        for (const variant of conditionalVariants(at, candidates, shape.properties)) {
          add(variant.rule, path, setAt(base, path, variant.value), variant.description, variant.fields.map((f: any) => dotted([...path, f])));
        }
      }
    };
    const visitValue = (pointers: any, value: any, path: any, depth: any) => {
      const c = shapeOf(pointers, value).constraints;
      for (const [rule, wrong, description] of leafVariants(c, value)) add(rule, path, setAt(base, path, wrong), description);
      if (depth < maxDepth && value && typeof value === 'object') visit(pointers, value, path, [value], depth);
    };

    visit([schemaPointer], base, [], valid, 0);
    return out;
  }

  /**
   * Negative variants of one path or query parameter value: the scalar rules of its schema
   * (type, enum, range, pattern, format), kept when the schema rejects them. Empty strings are
   * left out of paths, where they would address another operation.
   */
  function parameterVariants(schemaPointer: any, value: any, location: any) {
    const c = shapeOf([schemaPointer], value).constraints;
    const out: { rule: string; value: any; description: string }[] = [];
    for (const [rule, wrong, description] of leafVariants(c, value)) {
      if (wrong !== null && typeof wrong === 'object') continue;
      if (location === 'path' && String(wrong) === '') continue;
      // Every URL value is text: a number instead of a string is no different there.
      if (rule === 'type' && (typeof value === 'string' || typeof wrong === 'number')) continue;
      if (matches(schemaPointer, wrong) || out.some((v: any) => v.value === wrong)) continue;
      out.push({ rule, value: wrong, description });
    }
    return out;
  }

  return { deriveVariants, parameterVariants };
}
